// Package appcheck defines an Analyzer that reports fence or lease checks
// done in application code instead of in the storage write's own
// condition: a read of the stored fence compared in Go before an unfenced
// write, or the client's own view of its lease guarding a write.
package appcheck
