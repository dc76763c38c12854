package yarn

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/gozie/gozie/hadoop"
)

// pathDelegationToken is RMWebServices' delegation-token resource.
const pathDelegationToken = "/ws/v1/cluster/delegation-token"

// DelegationTokenInfo is the JSON of the RM's delegation-token resource
// (the DelegationToken DAO, sent and answered unwrapped): the request
// names the renewer, the answer the token as a URL string with its owner,
// kind and expiry.
type DelegationTokenInfo struct {
	// Token is the token's URL string ([EncodeTokenURLString]).
	Token string `json:"token,omitempty"`
	// Renewer is who may renew the token, e.g. the RM's own principal.
	Renewer string `json:"renewer,omitempty"`
	// Owner is the user the token acts for.
	Owner string `json:"owner,omitempty"`
	// Kind is the token's kind, RM_DELEGATION_TOKEN.
	Kind string `json:"kind,omitempty"`
	// ExpirationTime is when the token expires unless renewed, in
	// milliseconds since the epoch.
	ExpirationTime int64 `json:"expiration-time,omitempty"`
	// MaxValidity is the last moment any renewal reaches, in milliseconds
	// since the epoch.
	MaxValidity int64 `json:"max-validity,omitempty"`
}

// DelegationToken asks the RM for a delegation token (kind
// RM_DELEGATION_TOKEN) of the effective user of ctx (hadoop.AsUser; the
// authenticated user otherwise) that renewer may renew. The RM issues
// tokens only to callers that authenticated with Kerberos (SPNEGO, see
// [SPNEGOAuth]); others get a 403. The token's service is the RM's
// (empty): a caller that puts it into a submission for YARN clients sets
// it to the RM address those clients dial, as ClientRMProxy's
// getRMDelegationTokenService does.
func (c *Client) DelegationToken(ctx context.Context, renewer string) (hadoop.Token, error) {
	if renewer == "" {
		return hadoop.Token{}, errors.New("getting an RM delegation token: no renewer")
	}
	resp, err := c.do(ctx, request{method: http.MethodPost, path: pathDelegationToken, body: DelegationTokenInfo{Renewer: renewer}})
	if err != nil {
		return hadoop.Token{}, fmt.Errorf("getting an RM delegation token: %w", err)
	}
	if resp.status != http.StatusOK {
		return hadoop.Token{}, fmt.Errorf("getting an RM delegation token: %w", decodeRemoteError(http.MethodPost, resp.url, resp.status, resp.body))
	}
	var info DelegationTokenInfo
	if err := decodeJSON(resp, &info); err != nil {
		return hadoop.Token{}, fmt.Errorf("getting an RM delegation token: %w", err)
	}
	tok, err := DecodeTokenURLString(info.Token)
	if err != nil {
		return hadoop.Token{}, fmt.Errorf("getting an RM delegation token: answer of %s: %w", resp.url, err)
	}
	return tok, nil
}
