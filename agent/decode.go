package agent

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// decodeStrict decodes text as exactly one JSON object into dst, rejecting
// unknown fields and trailing data. A surrounding Markdown code fence is
// tolerated, since models often add one.
func decodeStrict(text string, dst any) error {
	body := stripFence(strings.TrimSpace(text))
	if !strings.HasPrefix(body, "{") {
		return errors.New("reply is not a JSON object")
	}
	dec := json.NewDecoder(strings.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(dst); err != nil {
		return fmt.Errorf("reply is not valid JSON for this step: %w", err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("reply has data after the JSON object")
	}
	return nil
}

// stripFence removes a ```json … ``` fence around text, if there is one.
func stripFence(text string) string {
	if !strings.HasPrefix(text, "```") {
		return text
	}
	nl := strings.IndexByte(text, '\n')
	if nl < 0 {
		return text
	}
	body := strings.TrimSpace(text[nl+1:])
	return strings.TrimSpace(strings.TrimSuffix(body, "```"))
}

// fields returns the top-level keys of a JSON object (after stripping a
// fence), to tell a missing field from a zero one.
func fields(text string) (map[string]json.RawMessage, error) {
	var m map[string]json.RawMessage
	body := stripFence(strings.TrimSpace(text))
	if err := json.NewDecoder(bytes.NewReader([]byte(body))).Decode(&m); err != nil {
		return nil, err
	}
	return m, nil
}
