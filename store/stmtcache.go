package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"

	"modernc.org/sqlite"
)

// MaxCachedStmts bounds the prepared statements one connection keeps. The
// store's queries are a fixed set of a few dozen texts; the bound only
// guards against an unforeseen stream of distinct SQL.
const MaxCachedStmts = 256

// openCached opens a pool whose connections keep every statement they
// prepare, keyed by its SQL text: the modernc driver otherwise parses and
// plans the SQL on every call, which profiling showed as ~30% of a turn.
func openCached(dsn string) *sql.DB { return sql.OpenDB(cachingConnector{dsn}) }

type cachingConnector struct{ dsn string }

func (c cachingConnector) Connect(context.Context) (driver.Conn, error) {
	conn, err := (&sqlite.Driver{}).Open(c.dsn)
	if err != nil {
		return nil, err
	}
	return &cachingConn{Conn: conn, stmts: make(map[string]driver.Stmt)}, nil
}

func (c cachingConnector) Driver() driver.Driver { return &sqlite.Driver{} }

// cachingConn wraps one driver connection. database/sql hands a connection
// to one goroutine at a time, so the map needs no lock.
type cachingConn struct {
	driver.Conn
	stmts map[string]driver.Stmt
}

var errNoContext = errors.New("sqlite driver lacks a context method")

// stmt returns the cached statement for q, preparing it once. Past
// MaxCachedStmts it returns a fresh statement and cached=false: the caller
// closes it after use (cached ones may back open rows, so none is evicted).
func (c *cachingConn) stmt(ctx context.Context, q string) (s driver.Stmt, cached bool, err error) {
	if s, ok := c.stmts[q]; ok {
		return s, true, nil
	}
	p, ok := c.Conn.(driver.ConnPrepareContext)
	if !ok {
		return nil, false, errNoContext
	}
	if s, err = p.PrepareContext(ctx, q); err != nil {
		return nil, false, err
	}
	if len(c.stmts) >= MaxCachedStmts {
		return s, false, nil
	}
	c.stmts[q] = s
	return s, true, nil
}

func (c *cachingConn) QueryContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Rows, error) {
	s, cached, err := c.stmt(ctx, q)
	if err != nil {
		return nil, err
	}
	qs, ok := s.(driver.StmtQueryContext)
	if !ok {
		return nil, errNoContext
	}
	rows, err := qs.QueryContext(ctx, args)
	if cached {
		return rows, err
	}
	if err != nil {
		s.Close()
		return nil, err
	}
	return closingRows{Rows: rows, stmt: s}, nil
}

func (c *cachingConn) ExecContext(ctx context.Context, q string, args []driver.NamedValue) (driver.Result, error) {
	s, cached, err := c.stmt(ctx, q)
	if err != nil {
		return nil, err
	}
	if !cached {
		defer s.Close()
	}
	es, ok := s.(driver.StmtExecContext)
	if !ok {
		return nil, errNoContext
	}
	return es.ExecContext(ctx, args)
}

func (c *cachingConn) BeginTx(ctx context.Context, opts driver.TxOptions) (driver.Tx, error) {
	b, ok := c.Conn.(driver.ConnBeginTx)
	if !ok {
		return nil, errNoContext
	}
	return b.BeginTx(ctx, opts)
}

func (c *cachingConn) PrepareContext(ctx context.Context, q string) (driver.Stmt, error) {
	p, ok := c.Conn.(driver.ConnPrepareContext)
	if !ok {
		return nil, errNoContext
	}
	return p.PrepareContext(ctx, q)
}

func (c *cachingConn) Ping(ctx context.Context) error {
	if p, ok := c.Conn.(driver.Pinger); ok {
		return p.Ping(ctx)
	}
	return nil
}

func (c *cachingConn) ResetSession(ctx context.Context) error {
	if r, ok := c.Conn.(driver.SessionResetter); ok {
		return r.ResetSession(ctx)
	}
	return nil
}

func (c *cachingConn) IsValid() bool {
	if v, ok := c.Conn.(driver.Validator); ok {
		return v.IsValid()
	}
	return true
}

func (c *cachingConn) Close() error {
	for q, s := range c.stmts {
		s.Close()
		delete(c.stmts, q)
	}
	return c.Conn.Close()
}

// closingRows closes an uncached statement when its rows are closed.
type closingRows struct {
	driver.Rows
	stmt driver.Stmt
}

func (r closingRows) Close() error {
	err := r.Rows.Close()
	r.stmt.Close()
	return err
}
