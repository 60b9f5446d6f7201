import Foundation
import HearthCore

extension FirestoreV1 {
  /// `CommitRequest`: writes applied atomically, in a transaction when `transaction` is
  /// not empty.
  package struct CommitRequest: FirestoreRequest {
    package static let protobufName = "google.firestore.v1.CommitRequest"

    package var database: DatabaseName
    package var writes: [Write]
    /// Empty outside a transaction.
    package var transaction: Data

    package init(database: DatabaseName, writes: [Write], transaction: Data = Data()) {
      self.database = database
      self.writes = writes
      self.transaction = transaction
    }

    package static func database(peeking reader: ProtobufReader) throws -> DatabaseName {
      try databaseField(reader, 1, "database")
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      self.database = database
      writes = []
      transaction = Data()
      while let key = try reader.next() {
        switch key.number {
        case 2: writes.append(try reader.message(key, "writes", as: Write.self, database: database))
        case 3: transaction = try reader.bytes(key, "transaction")
        default: try reader.skip(key)
        }
      }
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      writer.string(1, self.database.name)
      for write in writes { writer.message(2, write, database: database) }
      if !transaction.isEmpty { writer.bytes(3, transaction) }
    }
  }

  /// `CommitResponse`: one result per write, in order, and the commit's time.
  package struct CommitResponse: WireMessage, Equatable {
    package static let protobufName = "google.firestore.v1.CommitResponse"

    package var writeResults: [WriteResult]
    package var commitTime: Timestamp?

    package init(writeResults: [WriteResult], commitTime: Timestamp?) {
      self.writeResults = writeResults
      self.commitTime = commitTime
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      writeResults = []
      while let key = try reader.next() {
        switch key.number {
        case 1: writeResults.append(try reader.message(key, "write_results", as: WriteResult.self, database: database))
        case 2: commitTime = try Timestamp.decode(&reader, key, "commit_time")
        default: try reader.skip(key)
        }
      }
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      for result in writeResults { writer.message(1, result, database: database) }
      if let commitTime { writer.message(2, commitTime, database: database) }
    }
  }

  /// `BatchWriteRequest`: writes applied independently (not atomically), with labels.
  package struct BatchWriteRequest: FirestoreRequest {
    package static let protobufName = "google.firestore.v1.BatchWriteRequest"

    package var database: DatabaseName
    package var writes: [Write]
    package var labels: [String: String]

    package init(database: DatabaseName, writes: [Write], labels: [String: String] = [:]) {
      self.database = database
      self.writes = writes
      self.labels = labels
    }

    package static func database(peeking reader: ProtobufReader) throws -> DatabaseName {
      try databaseField(reader, 1, "database")
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      self.database = database
      writes = []
      labels = [:]
      while let key = try reader.next() {
        switch key.number {
        case 2: writes.append(try reader.message(key, "writes", as: Write.self, database: database))
        case 3: try Labels.decodeEntry(&reader, key, "google.firestore.v1.BatchWriteRequest.LabelsEntry", into: &labels)
        default: try reader.skip(key)
        }
      }
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      writer.string(1, self.database.name)
      for write in writes { writer.message(2, write, database: database) }
      Labels.encode(labels, 3, to: &writer)
    }
  }

  /// `BatchWriteResponse`: per write, its result and its status (OK, or why it failed).
  package struct BatchWriteResponse: WireMessage, Equatable {
    package static let protobufName = "google.firestore.v1.BatchWriteResponse"

    package var writeResults: [WriteResult]
    package var status: [Status]

    package init(writeResults: [WriteResult], status: [Status]) {
      self.writeResults = writeResults
      self.status = status
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      writeResults = []
      status = []
      while let key = try reader.next() {
        switch key.number {
        case 1: writeResults.append(try reader.message(key, "write_results", as: WriteResult.self, database: database))
        case 2: status.append(try reader.message(key, "status", as: Status.self, database: database))
        default: try reader.skip(key)
        }
      }
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      for result in writeResults { writer.message(1, result, database: database) }
      for entry in status { writer.message(2, entry, database: database) }
    }
  }
}

/// `map<string, string>` labels, written in `MapOrder`.
enum Labels {
  static func decodeEntry(
    _ reader: inout ProtobufReader, _ key: FieldKey, _ type: String, into labels: inout [String: String]
  ) throws {
    let (name, value) = try reader.message(key, "labels", type) { entry in
      var name = ""
      var value = ""
      while let key = try entry.next() {
        switch key.number {
        case 1: name = try entry.string(key, "key")
        case 2: value = try entry.string(key, "value")
        default: try entry.skip(key)
        }
      }
      return (name, value)
    }
    labels[name] = value
  }

  static func encode(_ labels: [String: String], _ number: Int, to writer: inout ProtobufWriter) {
    for name in MapOrder.sorted(labels.keys) {
      writer.message(number) { entry in
        entry.string(1, name)
        entry.string(2, labels[name]!)
      }
    }
  }
}
