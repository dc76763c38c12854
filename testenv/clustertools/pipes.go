package clustertools

// pipesRefused is `mapred pipes ...`: Hadoop Pipes runs a native program in
// every map and reduce task, driven over its binary pipes protocol by the
// task's PipesMapRunner and PipesReducer; the stand-in's tasks run streaming
// commands and identity phases only, so it refuses the job rather than run
// something else in its place.
func (t *tool) pipesRefused() int {
	t.errorf("pipes: the stand-in cluster runs no Hadoop Pipes tasks (a native program driven over the binary pipes protocol); run the program as a streaming mapper or reducer instead")
	return exitFail
}
