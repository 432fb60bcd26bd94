// Package hugeheap backs the heap of an allocation-heavy Go process with
// transparent huge pages where the kernel gives them only to memory that
// asks for them (THP "madvise", the default of most distributions).
//
// Why: fencelint under go vet is one short process per package. An
// analysed package allocates 30 to 300 MB in a fraction of a second, all
// of it fresh memory, so the process spends much of its life in page
// faults: one per 4 KiB page. On virtual machines a fault is dear (14 µs
// measured on the Firecracker VMs these benchmarks run on, where 6,000
// faults were 40% of an analysed package's time). Go's runtime does not
// ask for huge pages for its heap (it stopped in Go 1.21.1), so the kernel
// backs it with 4 KiB pages unless THP is "always". With huge pages a
// fault maps 2 MiB: temporal's 107 analysed vet units ran in about 65% of
// the time, with half the system time (docs/performance.md, run 16).
//
// How: Reserve allocates one large object, which the runtime maps as one
// fresh region of the heap, advises huge pages for that region
// (madvise(MADV_HUGEPAGE)), and lets the collector free the object at
// once. The region stays mapped, advised and untouched: the runtime
// carves the next spans out of it (it allocates the lowest free
// addresses first), and each first touch of a 2 MiB stretch faults in a
// huge page. Nothing is touched up front, so the resident size grows only
// with use (rounded up to 2 MiB stretches).
//
// Reserve does nothing on other systems, when THP is "always" or "never",
// under strict overcommit accounting (vm.overcommit_memory=2, where the
// mapping would count against the commit limit), or when Env is "0".
package hugeheap

// Env names the environment variable that turns Reserve off
// (FENCELINT_HUGEPAGES=0): for benchmarks that compare with and without,
// and for a user whose machine behaves worse with huge pages.
const Env = "FENCELINT_HUGEPAGES"

// Reserve maps up to size bytes of heap (less on a machine with little
// memory) and advises huge pages for them. It reports whether it did.
// Call it once, early, in a process that is about to allocate heavily;
// it runs two garbage collections of a heap that is still small.
func Reserve(size int) bool { return reserve(size) }
