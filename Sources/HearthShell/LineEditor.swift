import CEditLine
import Foundation

/// The interactive shell's line reader at a terminal, on libedit: emacs-style editing,
/// history kept across sessions in `historyFile`, Tab completion (`Completion`), and
/// Ctrl-C that drops the line being typed.
///
/// While a line is edited, the terminal delivers Ctrl-C as a key, bound to a function
/// that ends the line as `.interrupted`; while a command runs, it raises SIGINT, which
/// `Interrupts` turns into a request the command can see. libedit's own signal handling
/// restores the terminal on SIGTERM, SIGHUP and SIGTSTP.
final class LineEditor: LineReader {
  private let editLine: OpaquePointer
  private let history: OpaquePointer
  private let historyFile: String?
  private let session: Session
  /// The prompt as libedit reads it, owned here.
  private var prompt: UnsafeMutablePointer<CChar>
  private var interrupted = false

  /// - Returns: `nil` when libedit cannot drive this terminal.
  init?(session: Session, historyFile: String?) {
    guard let editLine = hearth_el_open("hearth") else { return nil }
    guard let history = hearth_history_open(1000) else {
      el_end(editLine)
      return nil
    }
    self.editLine = editLine
    self.history = history
    self.historyFile = historyFile
    self.session = session
    prompt = strdup("")
    if let historyFile { _ = hearth_history_load(history, historyFile) }
    hearth_el_set_client_data(editLine, Unmanaged.passUnretained(self).toOpaque())
    hearth_el_set_editor(editLine, "emacs")
    hearth_el_set_signal(editLine, 1)
    hearth_el_set_history(editLine, history)
    hearth_el_set_prompt(editLine) { editLine in
      editLine.flatMap(LineEditor.editor)?.prompt
    }
    hearth_el_add_function(editLine, "hearth-complete", "Complete a command, path or field name") { editLine, _ in
      UInt8(editLine.flatMap(LineEditor.editor)?.complete() ?? CC_ERROR)
    }
    hearth_el_add_function(editLine, "hearth-interrupt", "Drop the line being typed") { editLine, _ in
      editLine.flatMap(LineEditor.editor)?.interrupted = true
      return UInt8(CC_EOF)
    }
    hearth_el_bind(editLine, "^I", "hearth-complete")
    hearth_el_bind(editLine, "^C", "hearth-interrupt")
    hearth_el_keep_interrupt_key(editLine)
  }

  deinit {
    el_end(editLine)
    history_end(history)
    free(prompt)
  }

  private static func editor(_ editLine: OpaquePointer) -> LineEditor? {
    hearth_el_client_data(editLine).map { Unmanaged<LineEditor>.fromOpaque($0).takeUnretainedValue() }
  }

  func readLine(prompt text: String) -> LineInput? {
    free(prompt)
    prompt = strdup(text)
    interrupted = false
    session.stdout.flush()
    var count: Int32 = 0
    guard let line = el_gets(editLine, &count), count > 0 else {
      if interrupted {
        session.write("^C\n")
        return .interrupted
      }
      return nil
    }
    let bytes = Array(UnsafeRawBufferPointer(start: line, count: strlen(line)))
    var text: String
    do {
      text = try UTF8Input.line(bytes[...], source: nil, number: 1, start: 0)
    } catch {
      return .invalid(message: error.message)
    }
    if text.hasSuffix("\n") { text.removeLast() }
    let entry = text.trimmingCharacters(in: .whitespaces)
    if !entry.isEmpty {
      _ = hearth_history_enter(history, entry)
      if let historyFile { _ = hearth_history_save(history, historyFile) }
    }
    return .line(text)
  }

  /// Completes the word before the cursor: inserts what all candidates share, and lists
  /// them when that is all it can do.
  private func complete() -> Int32 {
    guard let info = el_line(editLine)?.pointee, let start = info.buffer else { return CC_ERROR }
    let typed = UnsafeBufferPointer(
      start: UnsafeRawPointer(start).assumingMemoryBound(to: UInt8.self),
      count: info.cursor - start)
    let completion = Completion.of(String(decoding: typed, as: UTF8.self), session: session)
    guard !completion.candidates.isEmpty else { return CC_REFRESH_BEEP }
    var insertion = String(completion.commonPrefix.dropFirst(completion.word.count))
    if completion.candidates.count == 1, completion.candidates[0].last != "/" { insertion += " " }
    if !insertion.isEmpty {
      el_insertstr(editLine, insertion)
      return CC_REFRESH
    }
    session.write("\n" + Self.columns(completion.candidates) + "\n")
    session.stdout.flush()
    return CC_REDISPLAY
  }

  /// Names in as many columns as fit 80 characters.
  private static func columns(_ names: [String]) -> String {
    let width = (names.map(\.count).max() ?? 0) + 2
    let perLine = max(1, 80 / width)
    return stride(from: 0, to: names.count, by: perLine).map { start in
      names[start..<min(start + perLine, names.count)].map { $0.padding(toLength: width, withPad: " ", startingAt: 0) }
        .joined().trimmingCharacters(in: .whitespaces)
    }.joined(separator: "\n")
  }
}
