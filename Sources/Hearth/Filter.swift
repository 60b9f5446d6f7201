import Foundation
import HearthCore

/// A filter for `Query.whereFilter(_:)`: one field comparison, or an AND / OR of filters,
/// nested freely.
///
/// ```swift
/// db.collection("users").whereFilter(.orFilter([
///   .whereField("age", isLessThan: 18),
///   .andFilter([.whereField("age", isGreaterThan: 65), .whereField("country", isEqualTo: "ES")]),
/// ]))
/// ```
///
/// Its values are read when it is added to a query, so invalid ones make that query throw.
public struct Filter {
  indirect enum Kind {
    case field(FieldPathInput, FilterOperator, Any)
    case and([Filter])
    case or([Filter])
  }
  let kind: Kind

  /// A field given as a dotted string or as a `FieldPath`.
  enum FieldPathInput {
    case dotted(String)
    case path(FieldPath)
  }

  /// Matches when every filter of `filters` does; an empty AND adds nothing.
  public static func andFilter(_ filters: [Filter]) -> Filter { Filter(kind: .and(filters)) }
  /// Matches when any filter of `filters` does; an empty OR adds nothing.
  public static func orFilter(_ filters: [Filter]) -> Filter { Filter(kind: .or(filters)) }

  // MARK: - Field comparisons (a String field path)

  /// Matches when `field` equals `value`, by Firestore's value equality (`3 == 3.0`).
  public static func whereField(_ field: String, isEqualTo value: Any) -> Filter { make(.dotted(field), .equal, value) }
  /// Matches when `field` exists, is not null and differs from `value`.
  public static func whereField(_ field: String, isNotEqualTo value: Any) -> Filter {
    make(.dotted(field), .notEqual, value)
  }
  /// Matches when `field` is less than `value`, compared within `value`'s type.
  public static func whereField(_ field: String, isLessThan value: Any) -> Filter {
    make(.dotted(field), .lessThan, value)
  }
  /// Matches when `field` is less than or equal to `value`, within `value`'s type.
  public static func whereField(_ field: String, isLessThanOrEqualTo value: Any) -> Filter {
    make(.dotted(field), .lessThanOrEqual, value)
  }
  /// Matches when `field` is greater than `value`, within `value`'s type.
  public static func whereField(_ field: String, isGreaterThan value: Any) -> Filter {
    make(.dotted(field), .greaterThan, value)
  }
  /// Matches when `field` is greater than or equal to `value`: Firebase's spelling on `Filter`.
  public static func whereField(_ field: String, isGreaterOrEqualTo value: Any) -> Filter {
    make(.dotted(field), .greaterThanOrEqual, value)
  }
  /// Matches when `field` is greater than or equal to `value`, within `value`'s type.
  public static func whereField(_ field: String, isGreaterThanOrEqualTo value: Any) -> Filter {
    make(.dotted(field), .greaterThanOrEqual, value)
  }
  /// Matches when `field` is an array holding `value`.
  public static func whereField(_ field: String, arrayContains value: Any) -> Filter {
    make(.dotted(field), .arrayContains, value)
  }
  /// Matches when `field` is an array holding one of `values` (at most 30).
  public static func whereField(_ field: String, arrayContainsAny values: [Any]) -> Filter {
    make(.dotted(field), .arrayContainsAny, values)
  }
  /// Matches when `field` equals one of `values` (at most 30).
  public static func whereField(_ field: String, in values: [Any]) -> Filter { make(.dotted(field), .in, values) }
  /// Matches when `field` exists, is not null and equals none of `values` (at most 10).
  public static func whereField(_ field: String, notIn values: [Any]) -> Filter {
    make(.dotted(field), .notIn, values)
  }

  // MARK: - Field comparisons (a FieldPath)

  /// Matches when `path` equals `value`, by Firestore's value equality (`3 == 3.0`).
  public static func whereField(_ path: FieldPath, isEqualTo value: Any) -> Filter { make(.path(path), .equal, value) }
  /// Matches when `path` exists, is not null and differs from `value`.
  public static func whereField(_ path: FieldPath, isNotEqualTo value: Any) -> Filter {
    make(.path(path), .notEqual, value)
  }
  /// Matches when `path` is less than `value`, compared within `value`'s type.
  public static func whereField(_ path: FieldPath, isLessThan value: Any) -> Filter {
    make(.path(path), .lessThan, value)
  }
  /// Matches when `path` is less than or equal to `value`, within `value`'s type.
  public static func whereField(_ path: FieldPath, isLessThanOrEqualTo value: Any) -> Filter {
    make(.path(path), .lessThanOrEqual, value)
  }
  /// Matches when `path` is greater than `value`, within `value`'s type.
  public static func whereField(_ path: FieldPath, isGreaterThan value: Any) -> Filter {
    make(.path(path), .greaterThan, value)
  }
  /// Matches when `path` is greater than or equal to `value`: Firebase's spelling on `Filter`.
  public static func whereField(_ path: FieldPath, isGreaterOrEqualTo value: Any) -> Filter {
    make(.path(path), .greaterThanOrEqual, value)
  }
  /// Matches when `path` is greater than or equal to `value`, within `value`'s type.
  public static func whereField(_ path: FieldPath, isGreaterThanOrEqualTo value: Any) -> Filter {
    make(.path(path), .greaterThanOrEqual, value)
  }
  /// Matches when `path` is an array holding `value`.
  public static func whereField(_ path: FieldPath, arrayContains value: Any) -> Filter {
    make(.path(path), .arrayContains, value)
  }
  /// Matches when `path` is an array holding one of `values` (at most 30).
  public static func whereField(_ path: FieldPath, arrayContainsAny values: [Any]) -> Filter {
    make(.path(path), .arrayContainsAny, values)
  }
  /// Matches when `path` equals one of `values` (at most 30).
  public static func whereField(_ path: FieldPath, in values: [Any]) -> Filter { make(.path(path), .in, values) }
  /// Matches when `path` exists, is not null and equals none of `values` (at most 10).
  public static func whereField(_ path: FieldPath, notIn values: [Any]) -> Filter {
    make(.path(path), .notIn, values)
  }

  private static func make(_ field: FieldPathInput, _ op: FilterOperator, _ value: Any) -> Filter {
    Filter(kind: .field(field, op, value))
  }
}
