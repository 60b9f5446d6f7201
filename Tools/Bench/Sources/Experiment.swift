import Foundation
import Hearth
import HearthCore

func runExperiment(_ workload: SocialWorkload) {
  let bytes = workload.documents[0].encoded
  let key = try! DocumentKey(parsing: workload.documents[0].path)
  let n = 200_000
  let clock = ContinuousClock()
  var sink = 0
  let word = Array("Post number 1 about swift".utf8)
  let t1 = clock.measure {
    for _ in 0..<n { sink &+= (try! bytes.withUnsafeBytes { try DocumentCodec.decode($0, key: key) }).fields.count }
  }
  let t2 = clock.measure {
    for _ in 0..<n * 10 { sink &+= word.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }.utf8.count }
  }
  let t3 = clock.measure {
    for _ in 0..<n * 10 { sink &+= word.withUnsafeBytes { HearthCore.UTF8Text.string($0)! }.utf8.count }
  }
  var dict = [String: Int]()
  let t4 = clock.measure {
    for i in 0..<n { dict = [String: Int](minimumCapacity: 8); for k in ["ownerId", "title", "body", "createdAt", "likes", "tags", "ratings", "published"] { dict[k] = i }; sink &+= dict.count }
  }
  print("decode→Value \(t1 / n), String(decoding:) \(t2 / (n * 10)), UTF8Text \(t3 / (n * 10)), 8-key dict \(t4 / n) \(sink & 1)")
}
