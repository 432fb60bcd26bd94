// Package fence is fencelint's shared engine: the one pass that finds lock
// scopes, follows fencing tokens through SSA def-use, models the condition
// of every storage write, and exports facts. The analyzers in analyzer/
// read its Model and report; none of them repeats this work.
//
// The pass returns an empty model before building any SSA when the package
// cannot contain a lock scope or a write helper (see relevant): that check
// is what keeps fencelint close to the cost of loading a large codebase.
package fence
