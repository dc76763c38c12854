// Package examples installs gozie's example apps into a running local
// cluster (`gozie examples install`, `make examples`) and tells how to run
// them. The apps are the ones the tests run, carried in the binary
// (gozie.Apps): the README's nightly pipeline (nightly-hive, this folder)
// and a catalogue of gozie's Oozie-style apps from testdata/apps that run
// on the local cluster as installed. Each goes, as Oozie's examples do, to
// /user/<user>/examples/apps/<app> in HDFS, and its input-data folder to
// /user/<user>/examples/input-data, where the workflows read it. Nothing
// is written to the cluster's disk directly: the files go through the
// NameNode as HDFS writes of the user.
//
// Apps of testdata/apps left out of the catalogue, and why: java-main,
// datelist-java-main, custom-main and spark need a jar compiled from their
// src folders (a JDK; the tests build it); hadoop-el's decision expects
// its own input's record count; pig, distcp, demo and hive ship input
// files of the same names as map-reduce's and hive2's with other
// contents; ssh, git, sqoop and hcatalog need a host key, a repository, a
// database or a table the tests make; aggregator, coord-input-logic, sla,
// cron-schedule and the bundle wait for input data or times the tests
// make.
package examples

import (
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"
)

// App is one installable example.
type App struct {
	// Name is the app's folder below /user/<user>/examples/apps (its
	// job.properties' oozie.wf.application.path names it).
	Name string
	// Src is the app's folder in gozie.Apps.
	Src string
	// About says what it shows, in a line.
	About string
	// Props are the -D definitions it needs beyond nameNode and
	// resourceManager: property name → key of local-cluster.properties.
	Props [][2]string
}

// Catalogue lists the apps Install installs, the README's pipeline first.
// Every one runs to SUCCEEDED as installed on `gozie server -local`
// (e2e/examples_test.go).
var Catalogue = []App{
	{Name: "nightly-hive", Src: "examples/nightly-hive", About: "the README's nightly pipeline: hive2 aggregate → fs publish → shell report",
		Props: [][2]string{{"jdbcURL", "hive2JdbcUrl"}}},
	{Name: "shell", Src: "testdata/apps/shell", About: "a shell script whose captured output a decision reads"},
	{Name: "map-reduce", Src: "testdata/apps/map-reduce", About: "a MapReduce job (identity classes) over input-data/text"},
	{Name: "streaming", Src: "testdata/apps/streaming", About: "a streaming MapReduce job (tr | uniq -c) over input-data/text"},
	{Name: "hive2", Src: "testdata/apps/hive2", About: "a Hive script on HiveServer2 over input-data/table",
		Props: [][2]string{{"jdbcURL", "hive2JdbcUrl"}}},
	{Name: "subwf", Src: "testdata/apps/subwf", About: "a sub-workflow that runs the map-reduce app"},
	{Name: "pyspark", Src: "testdata/apps/pyspark", About: "a PySpark application (lib/pi.py) on YARN, run by the node's python3"},
	{Name: "cron", Src: "testdata/apps/cron", About: "a coordinator: a workflow every 15 minutes of 2010-01-01 00:00 to 01:15"},
}

// Find returns the catalogue's app name.
func Find(name string) (App, bool) {
	i := slices.IndexFunc(Catalogue, func(a App) bool { return a.Name == name })
	if i < 0 {
		return App{}, false
	}
	return Catalogue[i], true
}

// File is one file to install: its HDFS path and content, and whether it
// is a script (made executable, as the repository's copy is).
type File struct {
	Path   string
	Data   []byte
	Script bool
}

// inputDir is the folder of an app's input data, installed below
// examples/input-data instead of with the app.
const inputDir = "input-data"

// Plan lists the files of apps (from apps, laid out as gozie.Apps) for
// user: each app's files below /user/<user>/examples/apps/<name>, its
// input-data below /user/<user>/examples/input-data. Two apps shipping one
// input file with different contents are refused: the workflows share the
// folder.
func Plan(apps fs.FS, catalogue []App, user string) ([]File, error) {
	root := "/user/" + user + "/examples"
	var files []File
	inputs := map[string]string{} // HDFS path → the app that ships it
	for _, a := range catalogue {
		err := fs.WalkDir(apps, a.Src, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel := strings.TrimPrefix(p, a.Src+"/")
			data, err := fs.ReadFile(apps, p)
			if err != nil {
				return err
			}
			f := File{Path: path.Join(root, "apps", a.Name, rel), Data: data, Script: strings.HasSuffix(rel, ".sh")}
			if in, ok := strings.CutPrefix(rel, inputDir+"/"); ok {
				f.Path = path.Join(root, inputDir, in)
				if other, seen := inputs[f.Path]; seen {
					i := slices.IndexFunc(files, func(g File) bool { return g.Path == f.Path })
					if string(files[i].Data) != string(data) {
						return fmt.Errorf("%s and %s ship different %s", other, a.Name, f.Path)
					}
					return nil
				}
				inputs[f.Path] = a.Name
			}
			files = append(files, f)
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("example app %s: %w", a.Name, err)
		}
	}
	return files, nil
}
