package minihs2

// The statements MiniHS2 understands, as parsed. Names keep the user's
// spelling; the catalog compares them case-insensitively as Hive does.

// statement is one parsed HiveQL statement.
type statement interface{ stmt() }

// tableName is a possibly database-qualified table name.
type tableName struct {
	db    string // empty: the session's current database
	table string
	tok   token // where the name starts, for error positions
}

// columnDef is a column of CREATE TABLE.
type columnDef struct {
	name string
	typ  string // lower case, as Hive stores it: "int", "varchar(10)"
}

// rowFormat is ROW FORMAT DELIMITED ...; empty fields take Hive's
// defaults.
type rowFormat struct {
	fieldDelim string
	nullFormat string
	set        bool
}

type createTableStmt struct {
	temporary, external, ifNotExists bool
	name                             tableName
	cols                             []columnDef
	format                           rowFormat
	storedAs                         string
	location                         string
	partitioned                      bool
	partitionTok                     token
	partCols                         []columnDef
}

type dropTableStmt struct {
	ifExists bool
	name     tableName
}

type createDatabaseStmt struct {
	ifNotExists bool
	name        string
	location    string
}

type dropDatabaseStmt struct {
	ifExists, cascade bool
	name              string
	tok               token
}

type useStmt struct {
	db  string
	tok token
}

// setStmt is SET, SET key or SET key=value (the text after SET, split at
// the first '=').
type setStmt struct {
	key, value string
	hasValue   bool
}

type showStmt struct {
	what string // "tables" or "databases"
}

// selectItem is one expression of the select list.
type selectItem struct {
	star  bool   // * or alias.*
	qual  string // alias of alias.*
	expr  expr   // nil for star and count(*)
	count bool   // count(*)
	alias string
	tok   token
}

type selectStmt struct {
	items []selectItem
	from  *tableName // nil: SELECT without FROM
	alias string
	where expr
	limit int // -1: none
}

type insertDirStmt struct {
	local  bool
	dir    string
	format rowFormat
	query  *selectStmt
}

type insertTableStmt struct {
	overwrite bool
	table     tableName
	partition *partSpec   // PARTITION (...), nil without
	query     *selectStmt // nil when values is used
	values    [][]expr
}

func (*createTableStmt) stmt()    {}
func (*dropTableStmt) stmt()      {}
func (*createDatabaseStmt) stmt() {}
func (*dropDatabaseStmt) stmt()   {}
func (*useStmt) stmt()            {}
func (*setStmt) stmt()            {}
func (*showStmt) stmt()           {}
func (*selectStmt) stmt()         {}
func (*insertDirStmt) stmt()      {}
func (*insertTableStmt) stmt()    {}

// expr is a scalar or boolean expression of WHERE, a select list or VALUES.
type expr interface{ exprNode() }

// colRef names a column, optionally qualified by the table or its alias.
type colRef struct {
	qual, name string
	tok        token
}

// literal is a constant: nil (NULL), int64, float64, string or bool.
type literal struct{ v any }

// binaryExpr is a comparison (= == != <> < <= > >= <=>) or AND / OR.
type binaryExpr struct {
	op   string
	l, r expr
}

type notExpr struct{ e expr }

type isNullExpr struct {
	e   expr
	not bool
}

type inExpr struct {
	e    expr
	list []expr
	not  bool
}

type negExpr struct{ e expr }

func (*colRef) exprNode()     {}
func (*literal) exprNode()    {}
func (*binaryExpr) exprNode() {}
func (*notExpr) exprNode()    {}
func (*isNullExpr) exprNode() {}
func (*inExpr) exprNode()     {}
func (*negExpr) exprNode()    {}
