package launcher

import (
	"fmt"

	"github.com/gozie/gozie/hadoop"
)

const tokenFileEnv = hadoop.TokenFileEnv

// actionTokensFile is the token file the command gets.
const actionTokensFile = "action_tokens"

// writeActionTokens copies the container's token file without the AMRM token
// into path, so that the action's code can use the delegation tokens
// (HDFS, RM) but cannot act as the ApplicationMaster. It reports false when
// the container has no token file.
func writeActionTokens(containerFile, path string) (bool, error) {
	if containerFile == "" {
		return false, nil
	}
	creds, err := hadoop.ReadTokenFile(containerFile)
	if err != nil {
		return false, fmt.Errorf("reading the container's tokens: %w", err)
	}
	out := &hadoop.Credentials{Tokens: map[string]hadoop.Token{}, Secrets: creds.Secrets}
	for alias, t := range creds.Tokens {
		if t.Kind != hadoop.KindAMRMToken {
			out.Tokens[alias] = t
		}
	}
	if err := hadoop.WriteTokenFile(path, out, hadoop.TokenFormatWritable); err != nil {
		return false, fmt.Errorf("writing the action's tokens: %w", err)
	}
	return true, nil
}
