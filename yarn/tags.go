package yarn

import (
	"crypto/sha512"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// Limits the ResourceManager puts on application tags (YarnConfiguration's
// APPLICATION_MAX_TAGS and APPLICATION_MAX_TAG_LENGTH).
const (
	MaxTags      = 10
	MaxTagLength = 100
)

// ActionTagPrefix starts every tag made by [ActionTag].
const ActionTagPrefix = "gozie-"

// ErrInvalidTag is wrapped by every error from [ValidateTags].
var ErrInvalidTag = errors.New("invalid application tag")

// ActionTag returns the application tag of one action run: "gozie-" followed by
// the first 64 lower-case hex digits of the SHA-384 digest of actionRunKey. The
// same key always gives the same tag, and the tag meets YARN's rules (printable
// ASCII, lower case, at most 100 characters), so the RM stores it unchanged and a
// list query by tag finds the application again after a restart.
func ActionTag(actionRunKey string) string {
	sum := sha512.Sum384([]byte(actionRunKey))
	return ActionTagPrefix + hex.EncodeToString(sum[:])[:64]
}

// ValidateTags checks tags against the ResourceManager's rules (at most
// [MaxTags] tags of at most [MaxTagLength] printable ASCII characters) and one
// rule of ours: no comma, because reports and list queries join tags with commas,
// so a tag holding one could never be found again.
func ValidateTags(tags []string) error {
	if len(tags) > MaxTags {
		return fmt.Errorf("%w: %d tags, a maximum of %d is allowed", ErrInvalidTag, len(tags), MaxTags)
	}
	for _, t := range tags {
		if err := validateTag(t); err != nil {
			return err
		}
	}
	return nil
}

func validateTag(t string) error {
	if t == "" {
		return fmt.Errorf("%w: empty tag", ErrInvalidTag)
	}
	if len(t) > MaxTagLength {
		return fmt.Errorf("%w: %q is %d characters long, the maximum is %d", ErrInvalidTag, t, len(t), MaxTagLength)
	}
	for i := 0; i < len(t); i++ {
		if t[i] < 0x20 || t[i] > 0x7e {
			return fmt.Errorf("%w: %q holds a character that is not printable ASCII at byte %d", ErrInvalidTag, t, i)
		}
	}
	if strings.Contains(t, ",") {
		return fmt.Errorf("%w: %q holds a comma", ErrInvalidTag, t)
	}
	return nil
}

// normalizeTags lower-cases tags the way the RM stores them.
func normalizeTags(tags []string) []string {
	if len(tags) == 0 {
		return nil
	}
	out := make([]string, len(tags))
	for i, t := range tags {
		out[i] = strings.ToLower(t)
	}
	return out
}
