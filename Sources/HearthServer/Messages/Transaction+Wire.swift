import Foundation
import HearthCore

extension FirestoreV1 {
  /// `google.firestore.v1.TransactionOptions`. HearthCore has no transactions of its own
  /// on the wire (the server keeps them), so this is the whole model.
  package struct TransactionOptions: WireMessage, Equatable {
    package static let protobufName = "google.firestore.v1.TransactionOptions"

    package enum Mode: Sendable, Equatable {
      /// Reads at `readTime` (or at the latest time when `nil`); no writes.
      case readOnly(readTime: Timestamp?)
      /// Reads and writes; `retryTransaction` names the transaction this one retries.
      case readWrite(retryTransaction: Data?)
    }

    /// `nil` when neither mode was set (read-write by default).
    package var mode: Mode?

    package init(mode: Mode?) { self.mode = mode }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      mode = nil
      while let key = try reader.next() {
        switch key.number {
        case 2:
          let readTime = try reader.message(key, "read_only", "google.firestore.v1.TransactionOptions.ReadOnly") {
            readOnly in
            var time: Timestamp?
            while let key = try readOnly.next() {
              if key.number == 2 {
                time = try Timestamp.decode(&readOnly, key, "read_time")
              } else {
                try readOnly.skip(key)
              }
            }
            return time
          }
          mode = .readOnly(readTime: readTime)
        case 3:
          let retry = try reader.message(key, "read_write", "google.firestore.v1.TransactionOptions.ReadWrite") {
            readWrite in
            var retry: Data?
            while let key = try readWrite.next() {
              if key.number == 1 {
                retry = try readWrite.bytes(key, "retry_transaction")
              } else {
                try readWrite.skip(key)
              }
            }
            return retry
          }
          mode = .readWrite(retryTransaction: retry.flatMap { $0.isEmpty ? nil : $0 })
        default: try reader.skip(key)
        }
      }
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      switch mode {
      case .readOnly(let readTime):
        writer.message(2) { if let readTime { $0.message(2, readTime, database: database) } }
      case .readWrite(let retry):
        writer.message(3) { if let retry, !retry.isEmpty { $0.bytes(1, retry) } }
      case nil: break
      }
    }
  }

  /// The `consistency_selector` oneof of the reads: inside a transaction, starting one,
  /// or at a past time. Its field numbers differ from request to request.
  package enum ConsistencySelector: Sendable, Equatable {
    case transaction(Data)
    case newTransaction(TransactionOptions)
    case readTime(Timestamp)

    /// The selector in field `key`, when `key` is one of the request's field numbers for it
    /// (`nil` for one it lacks); `nil` for any other field, which is left unread.
    static func decode(
      _ reader: inout ProtobufReader, _ key: FieldKey, transaction: Int?, newTransaction: Int?, readTime: Int?,
      database: DatabaseName
    ) throws -> ConsistencySelector? {
      if key.number == transaction { return .transaction(try reader.bytes(key, "transaction")) }
      if key.number == newTransaction {
        return .newTransaction(
          try reader.message(key, "new_transaction", as: TransactionOptions.self, database: database))
      }
      if key.number == readTime { return .readTime(try Timestamp.decode(&reader, key, "read_time")) }
      return nil
    }

    /// Encodes the selector at the request's field numbers (`nil` for one it lacks).
    func encode(
      to writer: inout ProtobufWriter, transaction: Int?, newTransaction: Int?, readTime: Int?, database: DatabaseName
    ) {
      switch self {
      case .transaction(let id): if let transaction { writer.bytes(transaction, id) }
      case .newTransaction(let options):
        if let newTransaction { writer.message(newTransaction, options, database: database) }
      case .readTime(let time): if let readTime { writer.message(readTime, time, database: database) }
      }
    }
  }

  /// `BeginTransactionRequest`: the database and the transaction's options.
  package struct BeginTransactionRequest: FirestoreRequest, Equatable {
    package static let protobufName = "google.firestore.v1.BeginTransactionRequest"

    package var database: DatabaseName
    package var options: TransactionOptions?

    package init(database: DatabaseName, options: TransactionOptions?) {
      self.database = database
      self.options = options
    }

    package static func database(peeking reader: ProtobufReader) throws -> DatabaseName {
      try databaseField(reader, 1, "database")
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      self.database = database
      while let key = try reader.next() {
        switch key.number {
        case 2: options = try reader.message(key, "options", as: TransactionOptions.self, database: database)
        default: try reader.skip(key)
        }
      }
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      writer.string(1, self.database.name)
      if let options { writer.message(2, options, database: database) }
    }
  }

  /// `BeginTransactionResponse`: the new transaction's ID.
  package struct BeginTransactionResponse: WireMessage, Equatable {
    package static let protobufName = "google.firestore.v1.BeginTransactionResponse"

    package var transaction: Data

    package init(transaction: Data) { self.transaction = transaction }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      transaction = Data()
      while let key = try reader.next() {
        if key.number == 1 { transaction = try reader.bytes(key, "transaction") } else { try reader.skip(key) }
      }
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      if !transaction.isEmpty { writer.bytes(1, transaction) }
    }
  }

  /// `RollbackRequest`: the transaction to abandon. (Its response is `Empty`: no bytes.)
  package struct RollbackRequest: FirestoreRequest, Equatable {
    package static let protobufName = "google.firestore.v1.RollbackRequest"

    package var database: DatabaseName
    package var transaction: Data

    package init(database: DatabaseName, transaction: Data) {
      self.database = database
      self.transaction = transaction
    }

    package static func database(peeking reader: ProtobufReader) throws -> DatabaseName {
      try databaseField(reader, 1, "database")
    }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      self.database = database
      transaction = Data()
      while let key = try reader.next() {
        if key.number == 2 { transaction = try reader.bytes(key, "transaction") } else { try reader.skip(key) }
      }
      guard !transaction.isEmpty else { throw reader.error("transaction (2)", "the transaction is missing") }
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      writer.string(1, self.database.name)
      writer.bytes(2, transaction)
    }
  }
}

extension FirestoreV1 {
  /// `google.rpc.Status`: a code and a message (`details` are neither read nor written).
  package struct Status: WireMessage, Equatable {
    package static let protobufName = "google.rpc.Status"

    /// `google.rpc.Code`, the raw values of `HearthError.Code`.
    package var code: Int32
    package var message: String

    package init(code: Int32, message: String) {
      self.code = code
      self.message = message
    }

    /// The status of a Hearth error, for a failed write of a `BatchWrite` or a listen
    /// target's `cause`.
    package init(_ error: HearthError) { self.init(code: Int32(error.code.rawValue), message: error.message) }

    package init(decoding reader: inout ProtobufReader, database: DatabaseName) throws {
      code = 0
      message = ""
      while let key = try reader.next() {
        switch key.number {
        case 1: code = try reader.int32(key, "code")
        case 2: message = try reader.string(key, "message")
        default: try reader.skip(key)
        }
      }
    }

    package func encode(to writer: inout ProtobufWriter, database: DatabaseName) {
      if code != 0 { writer.int32(1, code) }
      if !message.isEmpty { writer.string(2, message) }
    }
  }
}
