import Foundation
import HearthCore

@_exported import class Dispatch.DispatchQueue
@_exported import struct Foundation.Data
@_exported import struct Foundation.Date

// Hearth's value types, shared with the engine. Each behaves as its Firebase namesake.

/// A point in time to the nanosecond, as Firebase's `Timestamp` (stored to the
/// microsecond, as in Firestore).
public typealias Timestamp = HearthCore.Timestamp
/// A latitude and longitude, as Firebase's `GeoPoint`.
public typealias GeoPoint = HearthCore.GeoPoint
/// A path to a field, segment by segment, for names that dotted strings cannot spell
/// (`FieldPath(["a.b"])`), and `FieldPath.documentID()` for the document's ID.
public typealias FieldPath = HearthCore.FieldPath
/// The one error type of Hearth: Firestore's `code` and a message naming the path, the
/// field and the rule.
public typealias HearthError = HearthCore.HearthError

/// Firebase's name for the database, so ported code keeps compiling.
public typealias Firestore = Database

/// Firebase's error type name: `catch let error as FirestoreErrorCode where error.code == .notFound`.
public typealias FirestoreErrorCode = HearthError
/// The `NSError` domain of Hearth's errors, as Firebase names it.
// swift-format-ignore: AlwaysUseLowerCamelCase
public let FirestoreErrorDomain = HearthError.errorDomain
/// Firebase's name for `Settings`.
public typealias FirestoreSettings = Settings

#if !canImport(Darwin)
  /// Foundation on Linux lacks `NSErrorPointer` (and Objective-C's autoreleasing
  /// pointers); Firebase's transaction API needs it, and `errorPointer?.pointee = error`
  /// works the same with this plain pointer.
  public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?
#endif
