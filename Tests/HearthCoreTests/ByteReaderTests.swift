import Foundation
import Testing

@testable import HearthCore

/// `ByteReader`'s varints (LEB128, as `ByteWriter` writes them): every length, at the end
/// of the buffer and before other bytes, and the malformed ones with the offsets their
/// errors name.
@Suite struct ByteReaderTests {
  /// Every length from one byte to ten, alone in the buffer and with bytes after it: the
  /// value back, and the reader just past it.
  @Test func varintsOfEveryLengthReadBackWhereverTheyEnd() throws {
    var values: [UInt64] = [0, 1, 127, 128, 300, 16_383, 16_384, 1 << 35, 1 << 56, (1 << 63) - 1, 1 << 63, .max]
    values += (0..<64).map { UInt64(1) << $0 } + (0..<64).map { (UInt64(1) << $0) - 1 }
    var generator = SystemRandomNumberGenerator()
    values += (0..<300).map { _ in UInt64.random(in: 0 ... .max, using: &generator) >> UInt64.random(in: 0..<64) }
    for value in values {
      var writer = ByteWriter()
      writer.varint(value)
      let encoded = writer.bytes
      for padding in [0, 3, 9, 10, 16] {
        let bytes = encoded + [UInt8](repeating: 0xAB, count: padding)
        let (read, offset) = try bytes.withUnsafeBytes { buffer in
          var reader = ByteReader(buffer)
          let read = try reader.varint()
          return (read, reader.offset)
        }
        #expect(read == value, "\(value) with \(padding) bytes after it")
        #expect(offset == encoded.count, "\(value) with \(padding) bytes after it")
      }
    }
  }

  /// A tenth byte past the 64th bit is an error at the offset after it, a continuation
  /// bit on the tenth byte too (there is no eleventh), and a varint cut short by the end
  /// of the buffer one at the end.
  @Test func malformedVarintsFailAtTheByteThatBreaksThem() {
    let overflowing = [UInt8](repeating: 0xFF, count: 9) + [0x02]
    let continuing = [UInt8](repeating: 0x80, count: 10) + [0x00]
    let cases: [(bytes: [UInt8], reason: String, offset: Int)] = [
      (overflowing, "varint overflows 64 bits", 10),
      (continuing, "varint overflows 64 bits", 10),
    ]
    for (bytes, reason, offset) in cases {
      for padding in [0, 1, 12] {
        let failure = failure(bytes + [UInt8](repeating: 0x01, count: padding))
        #expect(failure?.reason == reason, "\(bytes) with \(padding) bytes after it")
        #expect(failure?.offset == offset, "\(bytes) with \(padding) bytes after it")
      }
    }
    let cut = failure([0x80, 0x80, 0x80])
    #expect(cut?.reason == "unexpected end of data")
    #expect(cut?.offset == 3)
  }

  private func failure(_ bytes: [UInt8]) -> ByteReader.Malformed? {
    bytes.withUnsafeBytes { buffer -> ByteReader.Malformed? in
      var reader = ByteReader(buffer)
      do throws(ByteReader.Malformed) {
        _ = try reader.varint()
        return nil
      } catch {
        return error
      }
    }
  }
}
