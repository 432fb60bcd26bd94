package hugeheap

import (
	"bytes"
	"os"
	"runtime"
	"syscall"
	"unsafe"
)

const (
	hugePageSize = 2 << 20
	madvHugepage = 14 // MADV_HUGEPAGE, <asm-generic/mman-common.h>
)

func reserve(size int) bool {
	if os.Getenv(Env) == "0" || !wanted() {
		return false
	}
	var si syscall.Sysinfo_t
	if syscall.Sysinfo(&si) != nil {
		return false
	}
	// Never ask for more than an eighth of the machine: the heuristic
	// overcommit check refuses a mapping larger than memory and swap,
	// and the runtime cannot recover from a refused heap mapping.
	if ram := uint64(si.Totalram) * uint64(si.Unit); uint64(size) > ram/8 {
		size = int(ram / 8)
	}
	if size < 4*hugePageSize {
		return false
	}
	region := make([]byte, size) // fresh memory: the runtime does not clear it
	err := advise(region)
	runtime.KeepAlive(region)
	// Free the object now, while the heap is small: the first collection
	// may still be marking (the allocation started it), the second frees.
	runtime.GC()
	return err == nil
}

// advise asks for huge pages for the 2 MiB-aligned stretches of b.
func advise(b []byte) error {
	p := uintptr(unsafe.Pointer(unsafe.SliceData(b)))
	start := (p + hugePageSize - 1) &^ (hugePageSize - 1)
	end := (p + uintptr(len(b))) &^ (hugePageSize - 1)
	if end <= start {
		return syscall.EINVAL
	}
	return syscall.Madvise(b[start-p:end-p], madvHugepage)
}

// wanted reports whether advising huge pages can change anything here:
// THP is in "madvise" mode and overcommit is not strict.
func wanted() bool {
	mode, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || !bytes.Contains(mode, []byte("[madvise]")) {
		return false
	}
	overcommit, err := os.ReadFile("/proc/sys/vm/overcommit_memory")
	return err == nil && !bytes.HasPrefix(overcommit, []byte("2"))
}
