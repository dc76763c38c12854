package launch

import (
	"strings"

	"github.com/gozie/gozie/actions"
	"github.com/gozie/gozie/hadoop"
	"github.com/gozie/gozie/workflow"
	"github.com/gozie/gozie/yarn/launcher"
)

// codeGitConf is a git action whose configuration the launcher cannot use
// (a git-uri without a scheme, or one gozie cannot clone from): the code
// Oozie reserves for GitMain's reading of the action configuration.
const codeGitConf = "GIT011"

// planGit fills a git action's spec. The destination and the key are read
// as Oozie's GitMain reads them, Hadoop paths on the action's filesystem:
// a full URI stays, an absolute path goes on the name node, a relative one
// below the user's home directory. Both must be on filesystems users may
// name (gozie.filesystems.supported, E0904); the git-uri must be one the
// launcher can clone (launcher.CheckGitURI).
func (e *Executor) planGit(run *actions.Attempt, p *plan, g *workflow.Git) error {
	uri := strings.TrimSpace(g.GitURI)
	if err := launcher.CheckGitURI(uri); err != nil {
		return actions.Errorf(actions.ActionError, codeGitConf, "%w", err)
	}
	home := p.root + "/user/" + run.User
	spec := &launcher.GitSpec{URI: uri, Branch: strings.TrimSpace(g.Branch),
		Destination: qualify(strings.TrimSpace(g.DestinationURI), p.root, home)}
	if k := strings.TrimSpace(g.KeyPath); k != "" {
		spec.KeyPath = qualify(k, p.root, home)
	}
	for _, path := range []string{spec.Destination, spec.KeyPath} {
		if path == "" {
			continue
		}
		if err := hadoop.CheckScheme(e.cfg.FS, path); err != nil {
			if refused := actions.SchemeRefused(err); refused != nil {
				return refused
			}
			return actions.Errorf(actions.ActionError, codeGitConf, "%w", err)
		}
	}
	p.spec.Git = spec
	return nil
}
