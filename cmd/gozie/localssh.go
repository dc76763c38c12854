package main

import (
	"strconv"

	"github.com/gozie/gozie/conf"
)

// useLocalSSH points the ssh action at the local cluster's SSH host, for
// every setting no flag, variable or site file set: its port, gozie's key
// there and the known_hosts file that vouches for it, so ssh actions of
// host localhost run there as the OS user.
func useLocalSSH(cfg *conf.Server, p map[string]string) {
	if p["sshPort"] == "" {
		return
	}
	if isDefault(cfg, "gozie.action.ssh.port") {
		if port, err := strconv.Atoi(p["sshPort"]); err == nil {
			cfg.SSH.Port = port
		}
	}
	if isDefault(cfg, "gozie.action.ssh.key-files") {
		cfg.SSH.KeyFiles = []string{p["sshKeyFile"]}
	}
	if isDefault(cfg, "gozie.action.ssh.known-hosts") {
		cfg.SSH.KnownHostsFile = p["sshKnownHosts"]
	}
}
