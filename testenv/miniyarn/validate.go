package miniyarn

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"

	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/yarn"
)

// maxApplicationTypeLength is YarnConfiguration.APPLICATION_TYPE_LENGTH: longer
// types are cut.
const maxApplicationTypeLength = 20

// validSubmission is a submission that passed validation, with defaults applied.
type validSubmission struct {
	sc          yarn.ApplicationSubmissionContext
	maxAttempts int
	tokens      []submittedToken
	secrets     map[string][]byte
}

// submittedToken is one decoded credentials token.
type submittedToken struct {
	alias string
	token hadoop.Token
}

// validate checks a submission body as the RM does and applies its defaults.
func (rm *RM) validate(body []byte) (validSubmission, *webError) {
	var idOnly struct {
		ID *string `json:"application-id"`
	}
	if err := json.Unmarshal(body, &idOnly); err != nil {
		return validSubmission{}, badRequest("Could not parse the submission context: %v", err)
	}
	if idOnly.ID == nil || *idOnly.ID == "" {
		return validSubmission{}, badRequest("Trying to submit an application without an application id")
	}
	appID, err := yarn.ParseApplicationID(*idOnly.ID)
	if err != nil {
		return validSubmission{}, illegalArgument("Invalid ApplicationId: %s", *idOnly.ID)
	}
	var sc yarn.ApplicationSubmissionContext
	if err := json.Unmarshal(body, &sc); err != nil {
		return validSubmission{}, badRequest("Could not parse the submission context: %v", err)
	}
	sc.ApplicationID = appID
	if appID.ClusterTimestamp != rm.opts.ClusterTimestamp || appID.Sequence < 1 || appID.Sequence > rm.issuedSeq() {
		return validSubmission{}, badRequest("Application id %s was not handed out by this ResourceManager", appID)
	}
	if werr := checkTags(sc.ApplicationTags); werr != nil {
		return validSubmission{}, werr
	}
	for i, t := range sc.ApplicationTags {
		sc.ApplicationTags[i] = strings.ToLower(t)
	}
	if sc.Queue == "" {
		sc.Queue = DefaultQueue
	}
	if sc.ApplicationName == "" {
		sc.ApplicationName = DefaultApplicationName
	}
	if sc.ApplicationType == "" {
		sc.ApplicationType = DefaultApplicationType
	} else if len(sc.ApplicationType) > maxApplicationTypeLength {
		sc.ApplicationType = sc.ApplicationType[:maxApplicationTypeLength]
	}
	if sc.Resource != nil {
		if werr := rm.checkResource(*sc.Resource); werr != nil {
			return validSubmission{}, werr
		}
	}
	if len(sc.AMContainerSpec.Commands) == 0 {
		return validSubmission{}, badRequest("The am-container-spec of %s has no commands", appID)
	}
	for key, lr := range sc.AMContainerSpec.LocalResources {
		if werr := checkLocalResource(key, lr); werr != nil {
			return validSubmission{}, werr
		}
	}
	sub := validSubmission{sc: sc, maxAttempts: sc.MaxAppAttempts}
	if sub.maxAttempts <= 0 || sub.maxAttempts > rm.opts.MaxAMAttempts {
		sub.maxAttempts = rm.opts.MaxAMAttempts
	}
	if creds := sc.AMContainerSpec.Credentials; creds != nil {
		toks, secrets, werr := decodeCredentials(*creds)
		if werr != nil {
			return validSubmission{}, werr
		}
		sub.tokens, sub.secrets = toks, secrets
	}
	return sub, nil
}

func (rm *RM) issuedSeq() int64 {
	rm.mu.Lock()
	defer rm.mu.Unlock()
	return rm.issued
}

// checkTags applies the RM's tag rules (ApplicationSubmissionContext.checkTags).
func checkTags(tags []string) *webError {
	if len(tags) > yarn.MaxTags {
		return illegalArgument("Too many applicationTags, a maximum of only %d are allowed!", yarn.MaxTags)
	}
	for _, t := range tags {
		if len(t) > yarn.MaxTagLength {
			return illegalArgument("Tag %s is too long, maximum allowed length of a tag is %d", t, yarn.MaxTagLength)
		}
		for i := 0; i < len(t); i++ {
			if t[i] < 0x20 || t[i] > 0x7e {
				return illegalArgument("A tag can only have ASCII characters! Invalid tag - %s", t)
			}
		}
	}
	return nil
}

func (rm *RM) checkResource(r yarn.Resource) *webError {
	max := rm.opts.MaxResource
	if r.MemoryMB < 0 || r.VCores < 0 || r.MemoryMB > max.MemoryMB || r.VCores > max.VCores {
		return &webError{
			status: http.StatusBadRequest, exception: "BadRequestException",
			class: "org.apache.hadoop.yarn.webapp.BadRequestException",
			message: fmt.Sprintf("Invalid resource request, requested resource type=[memory-mb or vcores] < 0 or greater than maximum allowed allocation. "+
				"Requested resource=<memory:%d, vCores:%d>, maximum allowed allocation=<memory:%d, vCores:%d>",
				r.MemoryMB, r.VCores, max.MemoryMB, max.VCores),
		}
	}
	return nil
}

func checkLocalResource(key string, lr yarn.LocalResource) *webError {
	if key == "" || strings.HasPrefix(key, "/") || strings.Contains("/"+key+"/", "/../") || key == "." {
		return badRequest("Invalid local resource link name %q", key)
	}
	if lr.Resource == "" {
		return badRequest("Local resource %s has no resource URL", key)
	}
	switch lr.Type {
	case yarn.ResourceFile, yarn.ResourceArchive, yarn.ResourcePattern:
	default:
		return badRequest("Local resource %s has unknown type %q", key, lr.Type)
	}
	switch lr.Visibility {
	case yarn.VisibilityPublic, yarn.VisibilityPrivate, yarn.VisibilityApplication:
	default:
		return badRequest("Local resource %s has unknown visibility %q", key, lr.Visibility)
	}
	return nil
}

// decodeCredentials decodes token URL strings and base64url secrets, rejecting
// anything undecodable with the RM's message.
func decodeCredentials(c yarn.Credentials) ([]submittedToken, map[string][]byte, *webError) {
	var toks []submittedToken
	for alias, s := range c.Tokens {
		t, err := decodeTokenURLString(s)
		if err != nil {
			return nil, nil, badRequest("Could not parse credentials data: token %s: %v", alias, err)
		}
		toks = append(toks, submittedToken{alias: alias, token: t})
	}
	secrets := make(map[string][]byte, len(c.Secrets))
	for alias, s := range c.Secrets {
		b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
		if err != nil {
			return nil, nil, badRequest("Could not parse credentials data: secret %s: %v", alias, err)
		}
		secrets[alias] = b
	}
	return toks, secrets, nil
}
