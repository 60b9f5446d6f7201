import Foundation

/// The root of the repository this test support was built from (this file is
/// `Tests/HearthTestSupport/Repository.swift`): where tests find `Schemas/`, the README
/// and the fuzz corpora.
public let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()
