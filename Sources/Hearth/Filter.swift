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

  public static func andFilter(_ filters: [Filter]) -> Filter { Filter(kind: .and(filters)) }
  public static func orFilter(_ filters: [Filter]) -> Filter { Filter(kind: .or(filters)) }

  // MARK: - Field comparisons (a String field path)

  public static func whereField(_ field: String, isEqualTo value: Any) -> Filter { make(.dotted(field), .equal, value) }
  public static func whereField(_ field: String, isNotEqualTo value: Any) -> Filter {
    make(.dotted(field), .notEqual, value)
  }
  public static func whereField(_ field: String, isLessThan value: Any) -> Filter {
    make(.dotted(field), .lessThan, value)
  }
  public static func whereField(_ field: String, isLessThanOrEqualTo value: Any) -> Filter {
    make(.dotted(field), .lessThanOrEqual, value)
  }
  public static func whereField(_ field: String, isGreaterThan value: Any) -> Filter {
    make(.dotted(field), .greaterThan, value)
  }
  /// Firebase spells this one `isGreaterOrEqualTo` on `Filter`.
  public static func whereField(_ field: String, isGreaterOrEqualTo value: Any) -> Filter {
    make(.dotted(field), .greaterThanOrEqual, value)
  }
  public static func whereField(_ field: String, isGreaterThanOrEqualTo value: Any) -> Filter {
    make(.dotted(field), .greaterThanOrEqual, value)
  }
  public static func whereField(_ field: String, arrayContains value: Any) -> Filter {
    make(.dotted(field), .arrayContains, value)
  }
  public static func whereField(_ field: String, arrayContainsAny values: [Any]) -> Filter {
    make(.dotted(field), .arrayContainsAny, values)
  }
  public static func whereField(_ field: String, in values: [Any]) -> Filter { make(.dotted(field), .in, values) }
  public static func whereField(_ field: String, notIn values: [Any]) -> Filter {
    make(.dotted(field), .notIn, values)
  }

  // MARK: - Field comparisons (a FieldPath)

  public static func whereField(_ path: FieldPath, isEqualTo value: Any) -> Filter { make(.path(path), .equal, value) }
  public static func whereField(_ path: FieldPath, isNotEqualTo value: Any) -> Filter {
    make(.path(path), .notEqual, value)
  }
  public static func whereField(_ path: FieldPath, isLessThan value: Any) -> Filter {
    make(.path(path), .lessThan, value)
  }
  public static func whereField(_ path: FieldPath, isLessThanOrEqualTo value: Any) -> Filter {
    make(.path(path), .lessThanOrEqual, value)
  }
  public static func whereField(_ path: FieldPath, isGreaterThan value: Any) -> Filter {
    make(.path(path), .greaterThan, value)
  }
  public static func whereField(_ path: FieldPath, isGreaterOrEqualTo value: Any) -> Filter {
    make(.path(path), .greaterThanOrEqual, value)
  }
  public static func whereField(_ path: FieldPath, isGreaterThanOrEqualTo value: Any) -> Filter {
    make(.path(path), .greaterThanOrEqual, value)
  }
  public static func whereField(_ path: FieldPath, arrayContains value: Any) -> Filter {
    make(.path(path), .arrayContains, value)
  }
  public static func whereField(_ path: FieldPath, arrayContainsAny values: [Any]) -> Filter {
    make(.path(path), .arrayContainsAny, values)
  }
  public static func whereField(_ path: FieldPath, in values: [Any]) -> Filter { make(.path(path), .in, values) }
  public static func whereField(_ path: FieldPath, notIn values: [Any]) -> Filter {
    make(.path(path), .notIn, values)
  }

  private static func make(_ field: FieldPathInput, _ op: FilterOperator, _ value: Any) -> Filter {
    Filter(kind: .field(field, op, value))
  }
}
