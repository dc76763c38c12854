package hcat

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/gozie/gozie/oozieerr"
)

// Scheme is the URI scheme of HCatalog datasets (Oozie's HCatURIHandler
// default, oozie.service.URIHandlerService.uri.handler.HCatURIHandler.supported.schemes).
const Scheme = "hcat"

// The separators of an HCatalog URI's partition specification.
const (
	partitionSeparator = ";"
	keyValueSeparator  = "="
	valueQuote         = "'"
)

// Partition is one key=value of a partition specification.
type Partition struct {
	Key, Value string
}

// URI is a parsed HCatalog URI. Partitions keep the URI's order.
type URI struct {
	// Raw is the URI as given.
	Raw string
	// Scheme is the URI's scheme as written (hcat).
	Scheme string
	// Server is the authority: host:port, or several separated by commas.
	Server string
	// DB and Table name the table.
	DB, Table string
	// Partitions is the partition specification.
	Partitions []Partition
}

// SyntaxError is a URI that is not an HCatalog URI. Its message is Java's
// URISyntaxException's, "<reason>: <uri>", as Oozie reports it.
type SyntaxError struct {
	URI, Reason string
}

// Error implements error.
func (e *SyntaxError) Error() string { return e.Reason + ": " + e.URI }

// ErrorCode returns Oozie's E0906.
func (e *SyntaxError) ErrorCode() string { return oozieerr.E0906 }

// IsURI reports whether s is an hcat:// URI (by its scheme, in any case).
func IsURI(s string) bool {
	scheme, _, ok := strings.Cut(s, "://")
	return ok && strings.EqualFold(scheme, Scheme)
}

// Parse parses an HCatalog URI as Oozie's HCatURI does: an authority is
// required; the path is exactly /db/table/partitions (a trailing slash is
// tolerated, as Java's String.split drops the empty field after it);
// partitions are key=value pairs separated by ';' (empty pairs skipped),
// each with exactly one '='. Percent-escapes in the path are decoded; a
// query or fragment is not part of the path.
func Parse(s string) (URI, error) {
	u := URI{Raw: s}
	fail := func(reason string) (URI, error) { return URI{}, &SyntaxError{URI: s, Reason: reason} }
	scheme, rest, ok := strings.Cut(s, "://")
	if !ok || scheme == "" {
		return fail("Server host and port are missing")
	}
	u.Scheme = scheme
	rest, _, _ = strings.Cut(rest, "#")
	rest, _, _ = strings.Cut(rest, "?")
	server, p, hasPath := strings.Cut(rest, "/")
	if server == "" {
		return fail("Server host and port are missing")
	}
	u.Server = server
	if hasPath {
		p = "/" + p
	}
	p, err := url.PathUnescape(p)
	if err != nil {
		return fail("Malformed escape pair in path")
	}
	paths := javaSplit(p, "/")
	if len(paths) != 4 {
		return fail("URI path is not in expected format")
	}
	u.DB, u.Table = paths[1], paths[2]
	switch {
	case u.DB == "":
		return fail("DB name is missing")
	case u.Table == "":
		return fail("Table name is missing")
	case paths[3] == "":
		return fail("Partition details are missing")
	}
	for _, part := range javaSplit(paths[3], partitionSeparator) {
		if part == "" {
			continue
		}
		kv := javaSplit(part, keyValueSeparator)
		if len(kv) != 2 {
			return fail("Partition key value pair is not specified properly in (" + part + ")")
		}
		u.setPartition(kv[0], kv[1])
	}
	return u, nil
}

// setPartition sets key's value, keeping the key's first position (a Java
// LinkedHashMap's put).
func (u *URI) setPartition(key, value string) {
	for i := range u.Partitions {
		if u.Partitions[i].Key == key {
			u.Partitions[i].Value = value
			return
		}
	}
	u.Partitions = append(u.Partitions, Partition{Key: key, Value: value})
}

// javaSplit splits s as Java's String.split(sep) with a literal separator:
// trailing empty fields are dropped, and an empty s gives one empty field.
func javaSplit(s, sep string) []string {
	parts := strings.Split(s, sep)
	if s == "" {
		return parts
	}
	for len(parts) > 0 && parts[len(parts)-1] == "" {
		parts = parts[:len(parts)-1]
	}
	return parts
}

// Value returns the value of partition key and whether the URI names it.
func (u URI) Value(key string) (string, bool) {
	for _, p := range u.Partitions {
		if p.Key == key {
			return p.Value, true
		}
	}
	return "", false
}

// Spec returns the partition specification as a map.
func (u URI) Spec() map[string]string {
	m := make(map[string]string, len(u.Partitions))
	for _, p := range u.Partitions {
		m[p.Key] = p.Value
	}
	return m
}

// Metastores returns the host:port of each metastore the URI names, in
// order (Oozie maps hcat://server to the metastore thrift://server).
func (u URI) Metastores() []string {
	var out []string
	for s := range strings.SplitSeq(u.Server, ",") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// PartitionFilter returns the partition specification as the filter of
// coord:dataInPartitionFilter for lang: "(k1=='v1' AND k2=='v2')" for pig
// (any case), "(k1='v1' AND k2='v2')" for any other (hive, java, mr), as
// HCatURI.toPartitionFilter.
func (u URI) PartitionFilter(lang string) string {
	op := "="
	if strings.EqualFold(lang, "pig") {
		op = "=="
	}
	parts := make([]string, len(u.Partitions))
	for i, p := range u.Partitions {
		parts[i] = p.Key + op + valueQuote + p.Value + valueQuote
	}
	return "(" + strings.Join(parts, " AND ") + ")"
}

// PartitionString returns "'k1=v1,k2=v2'", coord:dataOutPartitions's
// value (HCatStorer's partition argument; HCatURI.toPartitionString).
func (u URI) PartitionString() string {
	parts := make([]string, len(u.Partitions))
	for i, p := range u.Partitions {
		parts[i] = p.Key + keyValueSeparator + p.Value
	}
	return "'" + strings.Join(parts, ",") + "'"
}

// MetastoreFilter returns the specification as a metastore partition
// filter, k1="v1" and k2="v2" (what HCatClient.getPartitions sends to
// get_partitions_by_filter).
func (u URI) MetastoreFilter() string {
	parts := make([]string, len(u.Partitions))
	for i, p := range u.Partitions {
		parts[i] = p.Key + `="` + strings.ReplaceAll(p.Value, `"`, `\"`) + `"`
	}
	return strings.Join(parts, " and ")
}

// Matches reports whether a partition of db.table with the given values
// (key → value) is one of the partitions u stands for: same database and
// table (case-insensitive, as the metastore's names) and every key of u's
// specification with u's value (keys compare case-insensitively too).
func (u URI) Matches(db, table string, values map[string]string) bool {
	if !strings.EqualFold(u.DB, db) || !strings.EqualFold(u.Table, table) {
		return false
	}
	lower := make(map[string]string, len(values))
	for k, v := range values {
		lower[strings.ToLower(k)] = v
	}
	for _, p := range u.Partitions {
		if v, ok := lower[strings.ToLower(p.Key)]; !ok || v != p.Value {
			return false
		}
	}
	return true
}

// String returns the URI as given.
func (u URI) String() string { return u.Raw }

// Format builds an hcat URI (HCatURI.getHCatURI).
func Format(server, db, table string, parts []Partition) string {
	kv := make([]string, len(parts))
	for i, p := range parts {
		kv[i] = p.Key + keyValueSeparator + p.Value
	}
	return fmt.Sprintf("%s://%s/%s/%s/%s", Scheme, server, db, table, strings.Join(kv, partitionSeparator))
}
