package sqlcond

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

type tokKind uint8

const (
	tWord   tokKind = iota + 1 // bare identifier or keyword; also @@system_variable and #temp
	tQuoted                    // "ident", `ident`, [ident]
	tString                    // '...', E'...', N'...', $tag$...$tag$
	tNumber
	tParam
	tOp // operators and punctuation, including ( ) , ; .
)

// token is kept small and built in one allocation: a 1 MB IN list is
// half a million of them.
type token struct {
	start, end int
	word       string       // tWord: lower-cased text; tQuoted: lower-cased name without quotes; tOp: the operator
	ph         *Placeholder // tParam
	match      int32        // '(' and ')', '{' and '}': index of the partner token
	kind       tokKind
	decl       bool // a declared name followed by '(' that is not a call (CTE name)
}

var (
	errUnterminatedString  = errors.New("sqlcond: unterminated string")
	errUnterminatedComment = errors.New("sqlcond: unterminated comment")
	errUnterminatedIdent   = errors.New("sqlcond: unterminated quoted identifier")
	errUnbalanced          = errors.New("sqlcond: unbalanced parentheses")
	errTooDeep             = fmt.Errorf("sqlcond: parentheses nested deeper than %d", MaxNesting)
)

func (t *token) isOp(c byte) bool { return t.kind == tOp && len(t.word) == 1 && t.word[0] == c }

// Longest first within each length; checked 3, then 2, then 1 bytes.
var (
	ops3 = []string{"<=>", "->>", "#>>", "!~~", "~~*", "!~*", "<<=", ">>=", "-|-"}
	ops2 = []string{"<>", "<=", ">=", "!=", "==", "||", "->", "@>", "<@", "::", ":=", "#>", "#-",
		"&&", "<<", ">>", "~~", "~*", "!~", "^@", "&<", "&>", "@@", "?|", "?&"}
)

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}
func isDigit(c byte) bool  { return '0' <= c && c <= '9' }
func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// Non-ASCII bytes count as letters: identifiers may be written in any script.
func isIdentStart(c byte) bool { return isLetter(c) || c == '_' || c >= 0x80 }
func isIdentChar(c byte) bool  { return isIdentStart(c) || isDigit(c) }

// lex splits src into tokens, dropping whitespace and comments. mysql
// selects MySQL rules: backslash escapes in every quoted text and /* */
// comments that do not nest.
func lex(src string, mysql bool) ([]token, error) {
	// Count first: regrowing a slice of half a million tokens costs more
	// than lexing twice.
	var scratch token
	count := 0
	err := scan(src, mysql, func(k tokKind, start, end int) *token {
		count++
		scratch = newToken(src, k, start, end)
		return &scratch
	})
	if err != nil {
		return nil, err
	}
	toks := make([]token, 0, count)
	err = scan(src, mysql, func(k tokKind, start, end int) *token {
		toks = append(toks, newToken(src, k, start, end))
		return &toks[len(toks)-1]
	})
	return toks, err
}

func newToken(src string, k tokKind, start, end int) token {
	t := token{kind: k, start: start, end: end}
	if k == tOp {
		t.word = src[start:end]
	}
	return t
}

// scan hands every token of src to emit, which returns the token so that
// scan can fill its word or placeholder.
func scan(src string, mysql bool, emitToken func(k tokKind, start, end int) *token) error {
	n := len(src)
	at := func(i int) byte {
		if i < n {
			return src[i]
		}
		return 0
	}
	var last *token // the previous token, complete once scan has filled it
	emit := func(k tokKind, start, end int) *token {
		last = emitToken(k, start, end)
		return last
	}
	for i := 0; i < n; {
		c := src[i]
		switch {
		case isSpace(c):
			i++
		case c == '-' && at(i+1) == '-':
			i = lineEnd(src, i)
		case c == '#' && (isIdentStart(at(i+1)) || at(i+1) == '#'):
			// SQL Server #temp and ##global temp tables.
			j := i + 1
			for j < n && (isIdentChar(src[j]) || src[j] == '#') {
				j++
			}
			emit(tWord, i, j).word = strings.ToLower(src[i:j])
			i = j
		case c == '#' && at(i+1) != '>' && at(i+1) != '-':
			i = lineEnd(src, i) // MySQL comment; #> #>> #- are PostgreSQL operators
		case c == '/' && at(i+1) == '*':
			j, ok := skipBlockComment(src, i, !mysql)
			if !ok {
				return errUnterminatedComment
			}
			i = j
		case c == '\'':
			j, ok := skipQuoted(src, i, '\'', mysql)
			if !ok {
				return errUnterminatedString
			}
			emit(tString, i, j)
			i = j
		case (c == 'E' || c == 'e') && at(i+1) == '\'':
			j, ok := skipQuoted(src, i+1, '\'', true)
			if !ok {
				return errUnterminatedString
			}
			emit(tString, i, j)
			i = j
		case strings.IndexByte("NnXxBb", c) >= 0 && at(i+1) == '\'':
			j, ok := skipQuoted(src, i+1, '\'', mysql)
			if !ok {
				return errUnterminatedString
			}
			emit(tString, i, j)
			i = j
		case c == '"' || c == '`':
			j, ok := skipQuoted(src, i, c, mysql)
			if !ok {
				return errUnterminatedIdent
			}
			emit(tQuoted, i, j).word = unquote(src[i+1:j-1], c)
			i = j
		case c == '[' && bracketIdentAllowed(last):
			if j, ok := skipQuoted(src, i, ']', false); ok && strings.IndexByte(src[i:j], '\n') < 0 {
				emit(tQuoted, i, j).word = unquote(src[i+1:j-1], ']')
				i = j
			} else {
				emit(tOp, i, i+1)
				i++
			}
		case c == '$':
			j, err := lexDollar(src, i, emit)
			if err != nil {
				return err
			}
			i = j
		case c == '?' && isDigit(at(i+1)):
			j := digitsEnd(src, i+1)
			emit(tParam, i, j).ph = &Placeholder{Kind: Positional, Index: atoi(src[i+1 : j]), Offset: i}
			i = j
		case c == '?' && !isJSONBOp(src, i):
			emit(tParam, i, i+1).ph = &Placeholder{Kind: Ordinal, Offset: i}
			i++
		case c == ':' && at(i+1) != ':' && at(i+1) != '=' && isIdentStart(at(i+1)):
			j := namedEnd(src, i+1, true)
			emit(tParam, i, j).ph = &Placeholder{Kind: Named, Name: src[i+1 : j], Offset: i}
			i = j
		case c == '@' && at(i+1) == '@' && isIdentStart(at(i+2)):
			j := namedEnd(src, i+2, false)
			emit(tWord, i, j).word = strings.ToLower(src[i:j]) // system variable, not a parameter
			i = j
		case c == '@' && isIdentStart(at(i+1)):
			j := namedEnd(src, i+1, false)
			name := src[i+1 : j]
			ph := &Placeholder{Kind: Named, Name: name, Offset: i}
			if len(name) > 1 && (name[0] == 'p' || name[0] == 'P') && allDigits(name[1:]) {
				ph = &Placeholder{Kind: Positional, Index: atoi(name[1:]), Offset: i}
			}
			emit(tParam, i, j).ph = ph
			i = j
		case isDigit(c) || c == '.' && isDigit(at(i+1)):
			j := numberEnd(src, i)
			emit(tNumber, i, j)
			i = j
		case isIdentStart(c):
			j := i + 1
			for j < n && (isIdentChar(src[j]) || src[j] == '$') {
				j++
			}
			emit(tWord, i, j).word = strings.ToLower(src[i:j])
			i = j
		default:
			j := i + 1
			if op := opAt(src, i); op != "" {
				j = i + len(op)
			}
			emit(tOp, i, j)
			i = j
		}
	}
	return nil
}

// isJSONBOp tells the PostgreSQL operators ?| and ?& from a placeholder
// followed by || or && ('%'||?||'%' is a common SQLite LIKE pattern).
func isJSONBOp(src string, i int) bool {
	if i+1 >= len(src) || src[i+1] != '|' && src[i+1] != '&' {
		return false
	}
	return i+2 >= len(src) || src[i+2] != src[i+1]
}

func opAt(src string, i int) string {
	const opChars = "<>-#!~=|@:&^?*"
	if strings.IndexByte(opChars, src[i]) < 0 || i+1 >= len(src) || strings.IndexByte(opChars, src[i+1]) < 0 {
		return "" // fast path: every longer operator starts with two of these
	}
	for _, set := range [][]string{ops3, ops2} {
		for _, op := range set {
			if strings.HasPrefix(src[i:], op) {
				return op
			}
		}
	}
	return ""
}

func lineEnd(src string, i int) int {
	if j := strings.IndexByte(src[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(src)
}

// skipBlockComment returns the end of the /* */ comment at i.
func skipBlockComment(src string, i int, nested bool) (int, bool) {
	depth := 0
	for j := i; j+1 < len(src); {
		switch {
		case src[j] == '/' && src[j+1] == '*':
			depth++
			j += 2
		case src[j] == '*' && src[j+1] == '/':
			depth--
			j += 2
			if depth == 0 || !nested {
				return j, true
			}
		default:
			j++
		}
		if !nested && depth > 1 {
			depth = 1
		}
	}
	return 0, false
}

// skipQuoted returns the end of the text quoted by src[i] and closed by
// end; a doubled closer is an escaped one, and so is a backslash pair
// when backslash is set.
func skipQuoted(src string, i int, end byte, backslash bool) (int, bool) {
	for j := i + 1; j < len(src); j++ {
		switch src[j] {
		case '\\':
			if backslash {
				j++
			}
		case end:
			if j+1 < len(src) && src[j+1] == end {
				j++
				continue
			}
			return j + 1, true
		}
	}
	return 0, false
}

func unquote(s string, q byte) string {
	d := string([]byte{q, q})
	return strings.ToLower(strings.ReplaceAll(s, d, d[:1]))
}

// bracketIdentAllowed tells a SQL Server [ident] from a PostgreSQL
// subscript or array literal by the token before it: a subscript follows a
// value, a bracketed name follows a keyword or punctuation.
func bracketIdentAllowed(prev *token) bool {
	if prev == nil {
		return true
	}
	switch prev.kind {
	case tWord:
		return bracketKeywords[prev.word]
	case tQuoted, tString, tNumber, tParam:
		return false
	}
	return prev.word != ")" && prev.word != "]"
}

var bracketKeywords = set("select", "from", "join", "update", "into", "set", "where", "and", "or", "not",
	"on", "by", "table", "delete", "insert", "merge", "using", "as", "when", "then", "else", "case", "in",
	"is", "returning", "output", "values", "exists", "distinct", "top", "like", "between", "with",
	"exec", "execute", "declare", "order", "group", "having", "return", "if", "truncate", "alter",
	"drop", "create", "view", "index", "procedure", "inserted", "deleted")

// lexDollar reads a token starting with '$': $1, $name, $$...$$ or $tag$...$tag$.
func lexDollar(src string, i int, emit func(tokKind, int, int) *token) (int, error) {
	n := len(src)
	j := i + 1
	switch {
	case j < n && isDigit(src[j]):
		k := digitsEnd(src, j)
		emit(tParam, i, k).ph = &Placeholder{Kind: Positional, Index: atoi(src[j:k]), Offset: i}
		return k, nil
	case j < n && src[j] == '$':
		return lexDollarString(src, i, "$$", emit)
	case j < n && isIdentStart(src[j]):
		k := j
		for k < n && isIdentChar(src[k]) {
			k++
		}
		if k < n && src[k] == '$' {
			return lexDollarString(src, i, src[i:k+1], emit)
		}
		emit(tParam, i, k).ph = &Placeholder{Kind: Named, Name: src[j:k], Offset: i}
		return k, nil
	}
	emit(tOp, i, j)
	return j, nil
}

func lexDollarString(src string, i int, tag string, emit func(tokKind, int, int) *token) (int, error) {
	body := i + len(tag)
	k := strings.Index(src[body:], tag)
	if k < 0 {
		return 0, errUnterminatedString
	}
	end := body + k + len(tag)
	emit(tString, i, end)
	return end, nil
}

func digitsEnd(src string, i int) int {
	for i < len(src) && isDigit(src[i]) {
		i++
	}
	return i
}

// namedEnd returns the end of a placeholder name starting at i. sqlx
// names may contain dots for nested struct fields (:user.id).
func namedEnd(src string, i int, dots bool) int {
	for i < len(src) {
		c := src[i]
		if isIdentChar(c) || dots && c == '.' && i+1 < len(src) && isIdentStart(src[i+1]) {
			i++
			continue
		}
		break
	}
	return i
}

func numberEnd(src string, i int) int {
	j := i
	for j < len(src) {
		c := src[j]
		switch {
		case isIdentChar(c) && c < 0x80:
			j++
		case c == '.' && !(j+1 < len(src) && src[j+1] == '.'):
			j++
		case (c == '+' || c == '-') && (src[j-1] == 'e' || src[j-1] == 'E') &&
			j+1 < len(src) && isDigit(src[j+1]) && !strings.ContainsAny(src[i:j], "xX"):
			j++
		default:
			return j
		}
	}
	return j
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// atoi returns 0 when s does not fit an int: Index 0 means "unknown".
func atoi(s string) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return 0
	}
	return n
}

// matchParens links each '(' with its ')' and refuses unbalanced or too
// deeply nested input.
func matchParens(toks []token) error {
	var stack []int
	for i := range toks {
		t := &toks[i]
		switch {
		case t.isOp('('):
			if len(stack) == MaxNesting {
				return errTooDeep
			}
			stack = append(stack, i)
		case t.isOp(')'):
			if len(stack) == 0 {
				return errUnbalanced
			}
			open := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			toks[open].match, t.match = int32(i), int32(open)
		}
	}
	if len(stack) > 0 {
		return errUnbalanced
	}
	matchBraces(toks)
	return nil
}

// matchBraces links each '{' with its '}' when they are balanced: CQL's
// user-defined type, set and map literals ({shard_id: ?, owner: ?}) are
// one value whose commas do not separate SET items. Unbalanced braces are
// left unlinked (read as operators, as before), never an error.
func matchBraces(toks []token) {
	var stack []int
	for i := range toks {
		t := &toks[i]
		switch {
		case t.isOp('{'):
			if len(stack) == MaxNesting {
				return
			}
			stack = append(stack, i)
		case t.isOp('}'):
			if len(stack) == 0 {
				return
			}
			open := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			toks[open].match, t.match = int32(i), int32(open)
		}
	}
}

// splitStatements returns the [lo, hi) token ranges between top-level ';'.
func splitStatements(toks []token) [][2]int {
	var out [][2]int
	lo := 0
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if t.isOp('(') {
			i = int(t.match)
			continue
		}
		if t.isOp(';') {
			if i > lo {
				out = append(out, [2]int{lo, i})
			}
			lo = i + 1
		}
	}
	if len(toks) > lo {
		out = append(out, [2]int{lo, len(toks)})
	}
	return out
}

// numberPlaceholders gives each '?' its ordinal in the whole input. In a
// statement that uses $n, a bare '?' is the jsonb key-exists operator.
func numberPlaceholders(src string, toks []token, ranges [][2]int) {
	ordinal := 0
	for _, r := range ranges {
		dollar := false
		for i := r[0]; i < r[1]; i++ {
			t := toks[i]
			if t.kind == tParam && t.ph.Kind == Positional && src[t.start] == '$' {
				dollar = true
				break
			}
		}
		for i := r[0]; i < r[1]; i++ {
			t := &toks[i]
			if t.kind != tParam || t.ph.Kind != Ordinal {
				continue
			}
			if dollar {
				t.kind, t.ph = tOp, nil
				continue
			}
			ordinal++
			t.ph.Index = ordinal
		}
	}
}
