package workflow

import (
	"strings"
	"time"

	"github.com/gozie/gozie/conf"
)

// Options are the server settings the workflow engine follows. The zero
// value of a field means Oozie's default (see DefaultOptions); booleans are
// phrased so that false is the default.
type Options struct {
	// MaxDefinitionLength limits a definition's size in bytes (E0736).
	// Default 100000.
	MaxDefinitionLength int
	// MaxNodeNameLength limits node names (E0724). Default 128.
	MaxNodeNameLength int
	// SkipForkJoinValidation turns off the fork/join checks, as
	// oozie.validate.ForkJoin=false (server) or oozie.wf.validate.ForkJoin=false
	// (job property) do.
	SkipForkJoinValidation bool
	// DefaultNameNode and DefaultResourceManager fill in actions that name
	// neither themselves nor through <global> (oozie.actions.default.name-node,
	// oozie.actions.default.resource-manager / .job-tracker). Without them such
	// actions are E0701 errors.
	DefaultNameNode        string
	DefaultResourceManager string
	// HasExecutor reports whether the server has an executor for an action
	// type. The server's one registry of executors answers
	// (actions.Registry.Has); an action of a type it says no to is refused
	// with E0723. Nil means no registry is known (a parse outside a
	// server): then only the types the parser does not model (*Unsupported
	// bodies) are refused.
	HasExecutor func(actionType string) bool
	// HadoopConf is the server's Hadoop client configuration (its *-site.xml
	// properties), which hadoop:conf reads with values expanded; nil reads
	// as empty.
	HadoopConf *conf.Hadoop

	// UserRetryMax caps an action's retry-max (E0820 warning). Default 3.
	UserRetryMax int
	// UserRetryDefault is retry-max for actions that do not set it. Default 0.
	UserRetryDefault int
	// UserRetryInterval is retry-interval for actions that do not set it.
	// Default 10 minutes.
	UserRetryInterval time.Duration
	// UserRetryPolicy is "periodic" or "exponential". Default periodic.
	UserRetryPolicy string
	// UserRetryErrorCodes lists the error codes that allow a user retry
	// (user.retry.error.code). Default JA008, JA009, JA017, JA018, JA019,
	// FS009, FS008, FS014.
	UserRetryErrorCodes []string
	// UserRetryErrorCodesExt adds codes (user.retry.error.code.ext); "ALL"
	// allows any code.
	UserRetryErrorCodesExt []string
}

// Oozie's defaults; those of the user retries are the gozie.action.user-retry.*
// settings' (package conf).
const (
	DefaultMaxNodeNameLength = 128
	DefaultUserRetryMax      = conf.DefaultActionUserRetryMax
	DefaultUserRetryInterval = conf.DefaultActionUserRetryInterval
	RetryPeriodic            = "periodic"
	RetryExponential         = "exponential"
	retryAllCodes            = "ALL"
)

// RetryDelay is the delay before retry number done+1 under policy:
// interval (periodic), or interval times 2^done (exponential), as Oozie
// computes both user retries and transient ones. The doubling stops at
// 2^20 so that the delay cannot overflow.
func RetryDelay(policy string, interval time.Duration, done int) time.Duration {
	if policy != RetryExponential || done <= 0 {
		return interval
	}
	return interval << min(done, 20)
}

// DefaultUserRetryErrorCodes are the error codes Oozie retries by default.
var DefaultUserRetryErrorCodes = []string{"JA008", "JA009", "JA017", "JA018", "JA019", "FS009", "FS008", "FS014"}

// DefaultOptions returns Oozie's defaults.
func DefaultOptions() Options {
	return Options{}.withDefaults()
}

// withDefaults fills zero fields with the defaults.
func (o Options) withDefaults() Options {
	if o.MaxDefinitionLength <= 0 {
		o.MaxDefinitionLength = DefaultMaxDefinitionLength
	}
	if o.MaxNodeNameLength <= 0 {
		o.MaxNodeNameLength = DefaultMaxNodeNameLength
	}
	if o.UserRetryMax <= 0 {
		o.UserRetryMax = DefaultUserRetryMax
	}
	if o.UserRetryDefault < 0 {
		o.UserRetryDefault = 0
	}
	if o.UserRetryInterval <= 0 {
		o.UserRetryInterval = DefaultUserRetryInterval
	}
	if !strings.EqualFold(o.UserRetryPolicy, RetryExponential) {
		o.UserRetryPolicy = RetryPeriodic
	} else {
		o.UserRetryPolicy = RetryExponential
	}
	if o.UserRetryErrorCodes == nil {
		o.UserRetryErrorCodes = DefaultUserRetryErrorCodes
	}
	return o
}

// retryableCode reports whether an action that ended with code may be
// retried by the user-retry rules.
func (o Options) retryableCode(code string) bool {
	for _, list := range [][]string{o.UserRetryErrorCodes, o.UserRetryErrorCodesExt} {
		for _, c := range list {
			c = strings.TrimSpace(c)
			if c == retryAllCodes || c == code {
				return true
			}
		}
	}
	return false
}
