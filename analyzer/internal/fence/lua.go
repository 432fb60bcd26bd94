package fence

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/fencelint/fencelint/internal/lazyregexp"
)

var (
	luaLocalRe  = lazyregexp.New(`^\s*local\s+(\w+)\s*=\s*(.+)$`)
	luaIfRe     = lazyregexp.New(`(?s)\bif\b(.*?)\bthen\b(.*?)\b(?:end|else|elseif)\b`)
	luaStoredRe = lazyregexp.New(`(?i)redis\.p?call\(\s*['"](get|hget)['"]`)
	luaReturnRe = lazyregexp.New(`^\s*(return\b|error\()`)
	luaBoolRe   = lazyregexp.New(`\b(and|or|not)\b`)
)

// luaWrongWay reads how script compares the token passed as ARGV[n] with
// the stored fence (a GET or HGET, directly or through a local): a
// guard that returns early (if tok <= cur then return 0 end) lets the
// write proceed when its comparison is false, one whose body writes (if
// tok > cur then redis.call('SET', ...) end) when it is true. It returns
// why the script lets a stale token through when every comparison it
// reads lets the write proceed with the stored fence at or above the
// token, and "" otherwise (a valid comparison, or none it can read: the
// verdict then rests on the comparison being there).
func luaWrongWay(script string, n int) string {
	argv := regexp.MustCompile(`ARGV\[` + strconv.Itoa(n) + `\]`)
	var lines []string
	for _, l := range strings.Split(script, "\n") {
		lines = append(lines, stripLuaStrings(l))
	}
	text := strings.Join(lines, "\n")
	tokens, stored := map[string]bool{}, map[string]bool{}
	mentions := func(expr string, names map[string]bool) bool {
		for name := range names {
			if regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`).MatchString(expr) {
				return true
			}
		}
		return false
	}
	isToken := func(expr string) bool { return argv.MatchString(expr) || mentions(expr, tokens) }
	isStored := func(expr string) bool { return luaStoredRe.MatchString(expr) || mentions(expr, stored) }
	for _, l := range lines {
		m := luaLocalRe.FindStringSubmatch(l)
		if m == nil {
			continue
		}
		switch tok, st := isToken(m[2]), isStored(m[2]); {
		case tok && !st:
			tokens[m[1]] = true
		case st && !tok:
			stored[m[1]] = true
		}
	}
	wrong := ""
	for _, m := range luaIfRe.FindAllStringSubmatch(text, -1) {
		cond, body := m[1], m[2]
		if luaBoolRe.MatchString(cond) {
			continue // and/or/not: not read
		}
		loc := luaCmpRe.FindStringIndex(cond)
		if loc == nil {
			continue
		}
		left, op, right := cond[:loc[0]], cond[loc[0]:loc[1]], cond[loc[1]:]
		// Normalise to "stored op token".
		switch {
		case isStored(left) && !isToken(left) && isToken(right) && !isStored(right):
		case isToken(left) && !isStored(left) && isStored(right) && !isToken(right):
			op = flipOp(op)
		default:
			continue
		}
		proceed := op // the comparison under which the write runs
		switch {
		case luaWrites.MatchString(body):
		case luaReturnRe.MatchString(body):
			proceed = negateLua(op)
		default:
			continue
		}
		switch proceed {
		case "<", "<=", "==":
			return "" // the stored fence below (or equal to) the token
		}
		wrong = fmt.Sprintf("it writes when the stored fence %s the token (%s)", luaOpWords[proceed], strings.TrimSpace(cond))
	}
	if wrong == "" {
		return ""
	}
	return "the script lets a stale token through: " + wrong
}

var luaOpWords = map[string]string{">": "is above", ">=": "is at or above", "~=": "differs from"}

func negateLua(op string) string {
	switch op {
	case "<":
		return ">="
	case "<=":
		return ">"
	case ">":
		return "<="
	case ">=":
		return "<"
	case "==":
		return "~="
	case "~=":
		return "=="
	}
	return op
}

var (
	luaGetKeyRe = lazyregexp.New(`(?i)redis\.p?call\(\s*['"](?:get|hget)['"]\s*,\s*KEYS\[(\d+)\]`)
	luaSetKeyRe = lazyregexp.New(`(?i)redis\.p?call\(\s*['"](?:set|setex|psetex|hset|hmset|incr|incrby|mset)['"]\s*,\s*KEYS\[(\d+)\]`)
	luaOrderRe  = lazyregexp.New(`[<>]`)
)

// luaUnrecorded: the script orders the token against a stored fence it
// reads from KEYS[k] (GET) but never writes KEYS[k], so the fence never
// moves and a stale holder's smaller token passes as the current one's
// did (the Redis proof showed it lands). Equality compares are exempt: a
// counter the grant itself bumps is compared for equality.
func luaUnrecorded(script string) string {
	text := stripLuaStrings(script)
	if !luaOrderRe.MatchString(text) {
		return ""
	}
	written := map[string]bool{}
	for _, m := range luaSetKeyRe.FindAllStringSubmatch(script, -1) {
		written[m[1]] = true
	}
	for _, m := range luaGetKeyRe.FindAllStringSubmatch(script, -1) {
		if !written[m[1]] {
			return fmt.Sprintf("the script compares the token with KEYS[%s] but never writes that key, so the fence never moves", m[1])
		}
	}
	return ""
}
