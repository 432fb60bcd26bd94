package vetdriver

import (
	"bytes"
	"fmt"
	"os"
)

// The vetx file: vetxMagic, then the gob-encoded fact records (nothing
// when there are none). Unlike unitchecker's it carries no types:
// dependents import types from the compiler's export data.
const vetxMagic = "fencelint vetx 1\n"

func writeVetx(name string, facts []byte) error {
	data := append([]byte(vetxMagic), facts...)
	return os.WriteFile(name, data, 0o666)
}

func readVetx(name string) ([]byte, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	if !bytes.HasPrefix(data, []byte(vetxMagic)) {
		return nil, fmt.Errorf("%s is not a fencelint vetx file", name)
	}
	return data[len(vetxMagic):], nil
}

// vetxHasFacts reports whether the vetx file carries facts, from its size.
func vetxHasFacts(name string) (bool, error) {
	fi, err := os.Stat(name)
	if err != nil {
		return false, err
	}
	return fi.Size() > int64(len(vetxMagic)), nil
}
