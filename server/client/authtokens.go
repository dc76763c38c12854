package client

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// TokenCache keeps the servers' hadoop.auth tokens in a file readable by its owner only
// (mode 0600), one "<scheme://host:port> <token>" line per server, so that successive
// commands reuse a token instead of negotiating again (Oozie's ~/.oozie-auth-token).
// Errors reading it count as an empty cache.
type TokenCache struct {
	// Path is the file.
	Path string
}

// Get returns the token of origin ("http://host:port"), "" if none.
func (c *TokenCache) Get(origin string) string {
	return c.read()[origin]
}

// Put stores the token of origin; an empty token removes it. The file is replaced
// atomically.
func (c *TokenCache) Put(origin, token string) error {
	tokens := c.read()
	if tokens[origin] == token {
		return nil
	}
	if token == "" {
		delete(tokens, origin)
	} else {
		tokens[origin] = token
	}
	origins := make([]string, 0, len(tokens))
	for o := range tokens {
		origins = append(origins, o)
	}
	sort.Strings(origins)
	var b bytes.Buffer
	for _, o := range origins {
		fmt.Fprintf(&b, "%s %s\n", o, tokens[o])
	}
	tmp, err := os.CreateTemp(filepath.Dir(c.Path), "."+filepath.Base(c.Path)+".*")
	if err != nil {
		return fmt.Errorf("saving the authentication token: %w", err)
	}
	defer os.Remove(tmp.Name())
	// CreateTemp makes the file 0600 already; say so whatever the umask.
	err = tmp.Chmod(0o600)
	if err == nil {
		_, err = tmp.Write(b.Bytes())
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), c.Path)
	}
	if err != nil {
		return fmt.Errorf("saving the authentication token in %s: %w", c.Path, err)
	}
	return nil
}

// read returns the cached tokens by origin.
func (c *TokenCache) read() map[string]string {
	tokens := map[string]string{}
	data, err := os.ReadFile(c.Path)
	if err != nil {
		return tokens
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		origin, token, ok := strings.Cut(strings.TrimSpace(sc.Text()), " ")
		if ok && origin != "" && token != "" {
			tokens[origin] = token
		}
	}
	return tokens
}
