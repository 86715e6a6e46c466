package agent

import "time"

// Event is something an observer learns while a turn runs. The concrete
// types are StepStarted, StepFinished, Progress, Acknowledgment, Thinking,
// Chunk, Reset and Answer.
type Event interface{ isEvent() }

// Observer receives a turn's events in order, one at a time: mostly on the
// goroutine running the turn, the acknowledgment (and its thinking record)
// on the goroutine that wrote it, the moment it is ready. It must return
// quickly; slow work belongs on its own goroutine.
type Observer func(Event)

// StepStarted is sent when a step begins.
type StepStarted struct {
	Step  Step
	Round int
}

// StepFinished is sent when a step ends, with how long it took, the model
// calls it made and the error that ended it, if any (a step that fell back
// still finishes without error).
type StepFinished struct {
	Step     Step
	Round    int
	Duration time.Duration
	Calls    []CallInfo
	Err      error
}

// Progress is a short status line for the attendee ("Searching sessions…").
type Progress struct {
	Step    Step
	Message string
}

// Thinking carries a new thinking record and the whole list so far, oldest
// first, ready to be written to the assistant message.
type Thinking struct {
	Record ThinkingRecord
	All    []ThinkingRecord
}

// Chunk is a piece of the streamed answer. The answer's final text is the
// concatenation of its chunks.
type Chunk struct{ Text string }

// Answer is the complete answer with its validated citations.
type Answer struct {
	Text      string
	Citations []Citation
}

func (StepStarted) isEvent()  {}
func (StepFinished) isEvent() {}
func (Progress) isEvent()     {}
func (Thinking) isEvent()     {}
func (Chunk) isEvent()        {}
func (Answer) isEvent()       {}

// Reset tells observers to discard the answer text streamed so far: the
// model streaming it failed and another answer follows.
type Reset struct{ Reason string }

func (Reset) isEvent() {}

// Acknowledgment is a short note written while the agent starts working.
// It goes out the moment it is ready, before any other thinking record and
// the answer, or not at all; a Thinking event with its record follows.
type Acknowledgment struct{ Text string }

func (Acknowledgment) isEvent() {}
