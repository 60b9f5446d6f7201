/// Reports long work: documents done so far, and the total when known. A handler that
/// throws stops the work (an export leaves no file, a backup no copy, a check no report);
/// an import, once it writes, goes on to the end, so that it is never left half done.
///
/// In Model because work of several layers reports through it: the engine's `check` and
/// the snapshots' export, import and backup.
package typealias ProgressHandler = (_ done: Int, _ total: Int?) throws -> Void
