package rules

import "testing"

func TestGormEcosystemIsLibrary(t *testing.T) {
	for _, p := range []string{"gorm.io/gorm", "gorm.io/gen", "gorm.io/gen/field", "gorm.io/plugin/dbresolver"} {
		if !IsLibraryPackage(p) {
			t.Errorf("IsLibraryPackage(%q) = false: a gorm library would get write facts from chains it cannot see whole", p)
		}
	}
	if IsLibraryPackage("gorm.iox/app") || IsLibraryPackage("example.com/gorm.io") {
		t.Error("IsLibraryPackage matches beyond the gorm.io module path")
	}
}

// TestAdvisoryLock: advisory-lock SQL is recognised in any letter case,
// and only the pg_ advisory functions count.
func TestAdvisoryLock(t *testing.T) {
	for _, c := range []struct {
		sql                    string
		acquire, release, xact bool
	}{
		{"SELECT pg_advisory_lock($1)", true, false, false},
		{"select PG_TRY_ADVISORY_LOCK(42)", true, false, false},
		{"SELECT pg_advisory_xact_lock(hashtext($1))", true, false, true},
		{"SELECT Pg_Try_Advisory_Xact_Lock($1)", true, false, true},
		{"SELECT pg_advisory_unlock($1)", false, true, false},
		{"SELECT PG_ADVISORY_UNLOCK_ALL()", false, true, false},
		{"UPDATE t SET advisory_note = $1", false, false, false},
		{"SELECT my_advisory_lock($1)", false, false, false},
		{"", false, false, false},
	} {
		a, r, x := AdvisoryLock(c.sql)
		if a != c.acquire || r != c.release || x != c.xact {
			t.Errorf("AdvisoryLock(%q) = %v, %v, %v; want %v, %v, %v", c.sql, a, r, x, c.acquire, c.release, c.xact)
		}
	}
}
