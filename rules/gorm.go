package rules

const gormPkg = "gorm.io/gorm"

// Gorm is gorm.io/gorm. A write is the finisher of a chain,
// db.Model(&x).Where("fence < ?", tok).Update("state", "done"): the Where,
// Or and Not fragments of the chain are its condition. Save turns an
// UPDATE that matched no row into an upsert of every column without the
// WHERE, so no fence survives it; Create is a plain INSERT. Exec carries
// its own SQL.
var Gorm = Lib{
	Name:  "gorm",
	Paths: []string{gormPkg},
	Writes: []Write{
		{Func: "(*" + gormPkg + ".DB).Update", Kind: GormChain, Store: "gorm", KeyArg: -1, InputArg: 1, Outcome: gormRows},
		{Func: "(*" + gormPkg + ".DB).UpdateColumn", Kind: GormChain, Store: "gorm", KeyArg: -1, InputArg: 1, Outcome: gormRows},
		{Func: "(*" + gormPkg + ".DB).Updates", Kind: GormChain, Store: "gorm", KeyArg: -1, InputArg: -1, Outcome: gormRows},
		{Func: "(*" + gormPkg + ".DB).UpdateColumns", Kind: GormChain, Store: "gorm", KeyArg: -1, InputArg: -1, Outcome: gormRows},
		{Func: "(*" + gormPkg + ".DB).Delete", Kind: GormChain, Store: "gorm", KeyArg: -1, InputArg: -1, Outcome: gormRows},
		{Func: "(*" + gormPkg + ".DB).Save", Kind: GormSave, Store: "gorm", KeyArg: -1, Outcome: NoOutcome},
		{Func: "(*" + gormPkg + ".DB).Create", Kind: GormCreate, Store: "gorm", KeyArg: -1, Outcome: NoOutcome},
		{Func: "(*" + gormPkg + ".DB).Exec", Kind: SQLWrite, Store: "gorm", QueryArg: 0, ArgsFrom: 1, KeyArg: -1, Outcome: gormRows},
	},
	Reads: methods("(*"+gormPkg+".DB)", "First", "Find", "Take", "Last", "Scan", "Raw", "Count", "Pluck"),
}

// gormRows: gorm reports a write its WHERE rejected as success with the
// returned *DB's RowsAffected == 0, not as an error.
var gormRows = Outcome{Kind: RejectRowsField, Name: "0 rows", Field: "RowsAffected"}

// GormConditions are the chain methods whose fragments form the WHERE.
var GormConditions = map[string]bool{"Where": true, "Or": true, "Not": true}

// GormPassThrough are chain methods that neither add conditions nor
// change what is written. Any other method in a chain (Clauses, Scopes,
// Joins, ...) leaves the condition unknown.
var GormPassThrough = map[string]bool{
	"Model": true, "Table": true, "WithContext": true, "Session": true, "Debug": true,
	"Unscoped": true, "Select": true, "Omit": true, "Limit": true, "Order": true,
}

// GormBegin starts a transaction (tx := db.Begin()), and
// GormTransaction runs its func argument in one (db.Transaction(func(tx
// *gorm.DB) error {...})): the statements on that tx are one unit.
const (
	GormBegin       = "Begin"
	GormTransaction = "Transaction"
)

// IsGormDB reports whether t is gorm's *DB.
func IsGormDB(t string) bool { return t == "*"+gormPkg+".DB" }
