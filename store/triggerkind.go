package store

// TriggerKind names a kind of engine work: the handler that a trigger of the kind runs. Each
// package that does engine work declares its kinds as constants of this type and registers a
// handler for each on the engine (engine.Engine.Handle); the engine's package doc lists them all.
type TriggerKind string
