import Foundation

/// The one error type of Hearth, with Firestore's canonical codes.
///
/// The message names what is wrong in the user's terms: the document path, the field and
/// the rule broken, e.g. `Invalid data for users/alice, field tags: nested arrays are not
/// supported`. Catch it as Firestore users do:
///
/// ```swift
/// catch let error as FirestoreErrorCode where error.code == .notFound { … }
/// ```
public struct HearthError: Error, CustomStringConvertible, Sendable, Equatable {
  /// Firestore's error codes (`FirestoreErrorCode.Code` in the Firebase SDK), with the same
  /// raw values.
  public enum Code: Int, Sendable, CaseIterable {
    case ok = 0
    case cancelled = 1
    case unknown = 2
    case invalidArgument = 3
    case deadlineExceeded = 4
    case notFound = 5
    case alreadyExists = 6
    case permissionDenied = 7
    case resourceExhausted = 8
    case failedPrecondition = 9
    case aborted = 10
    case outOfRange = 11
    case unimplemented = 12
    case `internal` = 13
    case unavailable = 14
    case dataLoss = 15
    case unauthenticated = 16
  }

  public var code: Code
  public var message: String

  public init(_ code: Code, _ message: String = "") {
    self.code = code
    self.message = message
  }

  public var description: String { "\(message) (\(code))" }

  static func invalidArgument(_ message: String) -> HearthError { HearthError(.invalidArgument, message) }
  static func dataLoss(_ message: String) -> HearthError { HearthError(.dataLoss, message) }
}

/// Firebase's spelling of the codes on the error type, as its imported `NS_ERROR_ENUM`
/// gives them: `(error as NSError).code == FirestoreErrorCode.notFound.rawValue`.
extension HearthError {
  public static var ok: Code { .ok }
  public static var cancelled: Code { .cancelled }
  public static var unknown: Code { .unknown }
  public static var invalidArgument: Code { .invalidArgument }
  public static var deadlineExceeded: Code { .deadlineExceeded }
  public static var notFound: Code { .notFound }
  public static var alreadyExists: Code { .alreadyExists }
  public static var permissionDenied: Code { .permissionDenied }
  public static var resourceExhausted: Code { .resourceExhausted }
  public static var failedPrecondition: Code { .failedPrecondition }
  public static var aborted: Code { .aborted }
  public static var outOfRange: Code { .outOfRange }
  public static var unimplemented: Code { .unimplemented }
  public static var `internal`: Code { .internal }
  public static var unavailable: Code { .unavailable }
  public static var dataLoss: Code { .dataLoss }
  public static var unauthenticated: Code { .unauthenticated }
}

extension HearthError: LocalizedError {
  public var errorDescription: String? { message }
}

extension HearthError: CustomNSError {
  /// Firebase's error domain, so that `(error as NSError).domain` checks keep working.
  public static var errorDomain: String { "FIRFirestoreErrorDomain" }
  public var errorCode: Int { code.rawValue }
  public var errorUserInfo: [String: Any] { [NSLocalizedDescriptionKey: message] }
}
