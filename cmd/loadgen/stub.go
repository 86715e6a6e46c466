package main

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/erleah/erleah-agent/agent"
	"github.com/erleah/erleah-agent/llm/llmtest"
)

// startStub serves a minimal OpenAI-compatible chat API on loopback that
// waits delay before every reply: a plan searching the question's words in
// sessions, a relax decision, a short answer (streamed when asked), a good
// evaluation, an acknowledgment.
func startStub(delay time.Duration) (string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		var body struct {
			Stream   bool `json:"stream"`
			Messages []struct {
				Role    string `json:"role"`
				Content string `json:"content"`
			} `json:"messages"`
		}
		json.NewDecoder(r.Body).Decode(&body)
		select {
		case <-time.After(delay):
		case <-r.Context().Done():
			return
		}
		system := ""
		if len(body.Messages) > 0 {
			system = body.Messages[0].Content
		}
		reply(w, body.Stream, stubText(system))
	})
	go http.Serve(ln, mux)
	return "http://" + ln.Addr().String(), nil
}

// stubText answers each step as a quick, valid model would; the step is
// recognised from its system prompt as the tests recognise it.
func stubText(system string) string {
	switch llmtest.StepOf(system) {
	case agent.StepPlan:
		return `{"intent":"find sessions","queries":[{"table":"sessions","search_mode":"faceted","query_text":"machine learning in production","limit":10}]}`
	case agent.StepReflect:
		return `{"reasoning":"scores short of the band","strategy":"relax","user_message":"Let me widen the search a little.","new_queries":[{"table":"sessions","search_mode":"faceted","query_text":"machine learning in production","limit":10}]}`
	case agent.StepEval:
		return `{"quality_score":0.8,"confidence_score":0.7,"issues":[],"improvement_hint":null}`
	case agent.StepRespond:
		return "Here are a few sessions that fit what you asked about; each is listed with its time and room."
	}
	return "Let me look into that."
}

func reply(w http.ResponseWriter, stream bool, text string) {
	if !stream {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"id": "x", "object": "chat.completion", "model": "stub",
			"choices": []any{map[string]any{"index": 0, "message": map[string]any{"role": "assistant", "content": text}, "finish_reason": "stop"}},
			"usage":   map[string]any{"prompt_tokens": 100, "completion_tokens": 20, "total_tokens": 120}})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	for _, part := range strings.SplitAfter(text, " ") {
		b, _ := json.Marshal(map[string]any{"id": "x", "object": "chat.completion.chunk", "model": "stub",
			"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": part}}}})
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
	fmt.Fprint(w, "data: [DONE]\n\n")
}
