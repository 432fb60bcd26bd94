package fence

import "testing"

// TestGormColumn: the column gorm maps a struct field to, by its tag or
// by gorm's default naming.
func TestGormColumn(t *testing.T) {
	for _, c := range []struct{ field, tag, want string }{
		{"Version", "", "version"},
		{"GoodsID", "", "goods_id"},
		{"HTTPServer", "", "http_server"},
		{"LockVersion", "", "lock_version"},
		{"Stock2Count", "", "stock2_count"},
		{"Rev", `gorm:"column:row_rev;not null"`, "row_rev"},
		{"Rev", `gorm:"type:int;COLUMN: rv "`, "rv"},
		{"Rev", `json:"column:x"`, "rev"},
	} {
		if got := gormColumn(c.field, c.tag); got != c.want {
			t.Errorf("gormColumn(%q, %q) = %q, want %q", c.field, c.tag, got, c.want)
		}
	}
}

// TestContainsWord: a column named inside a SET expression, not as part
// of a longer name.
func TestContainsWord(t *testing.T) {
	for _, c := range []struct {
		s, word string
		want    bool
	}{
		{"version + 1", "version", true},
		{"coalesce(version, 0) + 1", "version", true},
		{"old_version + 1", "version", false},
		{"versions + 1", "version", false},
		{"1 + version_2 + version", "version", true},
		{"", "version", false},
	} {
		if got := containsWord(c.s, c.word); got != c.want {
			t.Errorf("containsWord(%q, %q) = %v, want %v", c.s, c.word, got, c.want)
		}
	}
}
