import Foundation
import HearthShell

// Everything lives in HearthShell, so that tests can drive the shell without a process.
exit(Shell.main())
