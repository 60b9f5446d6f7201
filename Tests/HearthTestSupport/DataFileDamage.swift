import Foundation

/// Changes the second byte of every copy of `marker` in `file` and returns how many copies
/// it changed: the damage tests write a marker into a document and then corrupt the stored
/// bytes that hold it. Every copy, because LMDB may keep older copies of a page; the first
/// byte stays, so that keys holding the marker keep their order.
///
/// - Throws: what reading or writing `file` throws.
@discardableResult
public func damageEveryCopy(of marker: String, inFile file: String) throws -> Int {
  let url = URL(fileURLWithPath: file)
  var bytes = [UInt8](try Data(contentsOf: url))
  let needle = Array(marker.utf8)
  var found = 0
  var index = 0
  while index + needle.count <= bytes.count {
    if bytes[index] == needle[0], bytes[index..<index + needle.count].elementsEqual(needle) {
      bytes[index + 1] ^= 0x20
      found += 1
      index += needle.count
    } else {
      index += 1
    }
  }
  try Data(bytes).write(to: url)
  return found
}

/// A database with two damaged documents among sound ones, for the salvage tests of the
/// API and of the shell: `users/a` and `users/c` have one byte changed in every copy of
/// their stored bytes; `readable` (`users/a/posts/p1` among them, below the damaged
/// `users/a`) are sound.
public enum DamagedDocuments {
  /// The damaged documents and the marker each holds (its field `s`).
  public static let markers = ["users/a": "DAMAGE-ME-ALPHA-0123456789", "users/c": "DAMAGE-ME-GAMMA-0123456789"]
  /// The sound documents, in path order.
  public static let readable = ["rooms/r1", "users/a/posts/p1", "users/b"]

  /// A marker that is not in the file it should damage.
  public struct MarkerNotFound: Error, CustomStringConvertible {
    public let description: String
  }

  /// Writes the documents into a new database at `path`, closes it and damages them.
  public static func write(at path: String) throws {
    try withDatabase(at: path) { db in
      for (document, marker) in markers { try db.document(document).setData(["s": marker]) }
      for document in readable { try db.document(document).setData(["s": "fine"]) }
    }
    for marker in markers.values {
      if try damageEveryCopy(of: marker, inFile: path + "/data.mdb") == 0 {
        throw MarkerNotFound(description: "\(marker) is not in \(path)/data.mdb")
      }
    }
  }
}
