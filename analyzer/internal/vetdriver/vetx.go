package vetdriver

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"strings"
)

// The vetx file: vetxMagic alone when there are no facts; else vetxMagic,
// a header line, then the gob-encoded fact records. Unlike unitchecker's
// it carries no types: dependents import types from the compiler's export
// data.
//
// The header is what an importer's relevance test needs, read without
// decoding a fact: "S" when the unit's own facts include one that is not
// weak (Hooks.WeakFact; with no WeakFact, whenever there are facts), "W"
// otherwise, then, each after a space, the names of the objects the
// file's weak object facts are about, sorted.
const vetxMagic = "fencelint vetx 2\n"

// vetxHeader is what the header line says.
type vetxHeader struct {
	Facts  bool     // the file carries facts
	Strong bool     // its unit's own facts include one that is not weak
	Weak   []string // the names of the objects its weak object facts are about
}

func writeVetx(name string, h vetxHeader, facts []byte) error {
	if len(facts) == 0 {
		return os.WriteFile(name, []byte(vetxMagic), 0o666)
	}
	var buf bytes.Buffer
	buf.WriteString(vetxMagic)
	if h.Strong {
		buf.WriteString("S")
	} else {
		buf.WriteString("W")
	}
	for _, n := range h.Weak {
		buf.WriteString(" " + n)
	}
	buf.WriteString("\n")
	buf.Write(facts)
	return os.WriteFile(name, buf.Bytes(), 0o666)
}

// readVetx returns the header and the fact records of a vetx file.
func readVetx(name string) (vetxHeader, []byte, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return vetxHeader{}, nil, err
	}
	if !bytes.HasPrefix(data, []byte(vetxMagic)) {
		return vetxHeader{}, nil, fmt.Errorf("%s is not a fencelint vetx file", name)
	}
	data = data[len(vetxMagic):]
	if len(data) == 0 {
		return vetxHeader{}, nil, nil
	}
	line, rest, ok := bytes.Cut(data, []byte("\n"))
	if !ok {
		return vetxHeader{}, nil, fmt.Errorf("%s: truncated vetx header", name)
	}
	h, err := parseVetxHeader(string(line))
	if err != nil {
		return vetxHeader{}, nil, fmt.Errorf("%s: %v", name, err)
	}
	return h, rest, nil
}

// readVetxHeader reads only the header of a vetx file: what a unit's
// relevance test asks of each direct import's, before anything is parsed.
func readVetxHeader(name string) (vetxHeader, error) {
	f, err := os.Open(name)
	if err != nil {
		return vetxHeader{}, err
	}
	defer f.Close()
	r := bufio.NewReader(f)
	magic, err := r.ReadString('\n')
	if magic != vetxMagic {
		return vetxHeader{}, fmt.Errorf("%s is not a fencelint vetx file", name)
	}
	line, err := r.ReadString('\n')
	if line == "" && err != nil {
		return vetxHeader{}, nil // no facts
	}
	if err != nil {
		return vetxHeader{}, fmt.Errorf("%s: truncated vetx header", name)
	}
	h, err := parseVetxHeader(strings.TrimSuffix(line, "\n"))
	if err != nil {
		return vetxHeader{}, fmt.Errorf("%s: %v", name, err)
	}
	return h, nil
}

func parseVetxHeader(line string) (vetxHeader, error) {
	fields := strings.Fields(line)
	if len(fields) == 0 || fields[0] != "S" && fields[0] != "W" {
		return vetxHeader{}, fmt.Errorf("bad vetx header %q", line)
	}
	return vetxHeader{Facts: true, Strong: fields[0] == "S", Weak: fields[1:]}, nil
}
