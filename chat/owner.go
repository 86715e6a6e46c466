package chat

import (
	"context"
	"errors"
	"fmt"
)

// Attendees kept apart. Directus 12 without a licence refuses item-level
// permission rules, so an attendee's role holds whole collections: any
// attendee may read every conversation, post into any of them and create
// assistant messages. Directus does record who created each item
// (user_created, filled in from the token whatever the client sends), so
// the agent decides for itself whose messages it answers (checkAuthor) and
// which existing reply counts (createReply).

// reasonNotOwner is the metadata.error of a refused message's reply.
const reasonNotOwner = "the conversation is not the author's"

// refusedText is what a refused message's reply says to whoever reads the
// conversation.
const refusedText = "This message was not answered: it was not written by the person this conversation belongs to."

// maxDetach bounds how often one reply detaches foreign replies before it
// gives up (an attendee racing the agent with new ones).
const maxDetach = 2

// mayPost reports whether a message written by author belongs in conv, for
// the agent whose Directus user is self: the agent answers it, and it
// counts in the conversation's history. It does when
//   - author owns the conversation: its user_created, or its user_id (set
//     by a backend that created the conversation for that attendee);
//   - author is the agent itself (the stream writes a caller's question
//     with the agent's token, the server having checked the caller);
//   - there is no author: the message was created without a user, by a
//     Flow or an import inside Directus. An attendee's token always leaves
//     its user there (Directus overwrites whatever the payload says), as
//     does an admin's static token;
//   - the conversation has no user_created: Directus has no record of whose
//     it is (it was made before the field existed, or without a user, by a
//     Flow or an import), so there is nobody to keep apart and it is
//     answered as before: an admin's message in it, for one, whatever its
//     user_id says (user_id is a free string, "e2e" in the tests).
//
// Anyone else, another attendee writing into a conversation that another
// user created, is not answered, and their messages are left out of the
// owner's history.
func mayPost(conv Conversation, author, self string) bool {
	switch {
	case author == "" || author == self:
		return true
	case conv.Owner == "":
		return true
	}
	return author == conv.Owner || author == conv.UserID
}

// checkAuthor lets through a user message whose author may post in its
// conversation (mayPost). Any other is not answered: its reply is written
// failed at once, with reasonNotOwner and no turn, so that it is closed
// and the reconciler does not take it up again and again, and the result
// is ErrNotOwner (an ErrDuplicate: the message has its reply now).
func (s *Service) checkAuthor(ctx context.Context, d Delivery, user Message) error {
	if user.Author == "" {
		return nil
	}
	st := s.opts.Store
	self, err := st.Self(ctx)
	if err != nil {
		s.directusError("read_self", err)
		return err
	}
	if user.Author == self {
		return nil
	}
	conv, err := st.Conversation(ctx, user.Conversation)
	if err != nil {
		s.directusError("read_conversation", err)
		return fmt.Errorf("read conversation: %w", err)
	}
	if mayPost(conv, user.Author, self) {
		return nil
	}
	s.m.Rejected.WithLabelValues("not_owner").Inc()
	s.log.Warn("not answering a message written into someone else's conversation", "message", user.ID, "author", user.Author,
		"conversation", user.Conversation, "owner", conv.Owner, "user_id", conv.UserID)
	md := map[string]any{"error": reasonNotOwner, "refused_by": s.instance}
	if d.restart {
		err = st.Patch(ctx, d.assistantID, replyPatch{status: StatusFailed, text: refusedText, setThinking: true, meta: md}.fields(nil))
	} else {
		err = st.Create(ctx, Message{ID: d.assistantID, Conversation: user.Conversation, Role: "assistant", Status: StatusFailed,
			Text: refusedText, ReplyTo: user.ID, Metadata: md})
		if errors.Is(err, ErrDuplicate) {
			err = nil // it has a reply already, whoever wrote it: closed all the same
		}
	}
	if err != nil {
		s.directusError("refuse_message", err)
		s.log.Warn("cannot close the refused message", "message", user.ID, "err", err)
	}
	return ErrNotOwner
}

// createReply creates the pending reply. When the store refuses it because
// the message has a reply already, that reply counts only when it is the
// agent's own: an assistant message created by the agent's user in the
// same conversation. Any other (an attendee's message whose reply_to names
// the question, which whole-collection grants allow) is detached, its
// reply_to set to null, and the agent's reply is created after all. The
// agent's own reply is a real duplicate: ErrDuplicate.
func (s *Service) createReply(ctx context.Context, id string, user Message) error {
	reply := Message{ID: id, Conversation: user.Conversation, Role: "assistant", Status: StatusPending, ReplyTo: user.ID,
		Metadata: map[string]any{"accepted_by": s.instance}}
	for range maxDetach + 1 {
		err := s.opts.Store.Create(ctx, reply)
		if !errors.Is(err, ErrDuplicate) {
			if err != nil {
				s.directusError("create_reply", err)
			}
			return err
		}
		err = s.detachForeign(ctx, id, user)
		if errors.Is(err, errCreatedHere) {
			s.log.Info("the reply was created by an earlier try whose answer was lost: taken up", "assistant", id)
			return nil
		}
		if err != nil {
			return err
		}
	}
	return fmt.Errorf("chat: the reply to %s is taken by foreign messages again and again", user.ID)
}

// errCreatedHere: the reply exists because an earlier try of this process
// created it and never saw Directus's answer (a dropped connection).
var errCreatedHere = errors.New("chat: the reply was created by an earlier try here")

// createdHere reports whether an existing reply is one this process
// created and never started: pending, empty, accepted here and neither
// handed back nor restarted since. The caller holds the reply's lease, so
// nobody else writes it; the reply is taken up as if just created.
func (s *Service) createdHere(existing Message, id string) bool {
	md := existing.Metadata
	_, handedBack := md["handed_back"]
	_, restarted := md["restarted_by"]
	return existing.ID == id && existing.Status == StatusPending && existing.Text == "" &&
		md["accepted_by"] == s.instance && !handedBack && !restarted
}

// detachForeign looks at what made the reply's creation fail: the agent's
// own reply (ErrDuplicate, or errCreatedHere when this process created
// it), a foreign one (detached: nil, to create again), or a foreign
// message holding the reply's id (an error: that id cannot be used).
func (s *Service) detachForeign(ctx context.Context, id string, user Message) error {
	st := s.opts.Store
	self, err := st.Self(ctx)
	if err != nil {
		s.directusError("read_self", err)
		return err
	}
	existing, found, err := st.Reply(ctx, user.ID)
	if err != nil {
		s.directusError("read_reply", err)
		return fmt.Errorf("read the existing reply: %w", err)
	}
	if !found { // the id is what is taken, or the reply went away meanwhile
		m, err := st.Message(ctx, id)
		switch {
		case err != nil:
			return nil // nothing there that this token can see: try again
		case m.Author == self:
			return ErrDuplicate
		}
		return fmt.Errorf("chat: the reply's id %s is taken by a message of %q that does not answer %s", id, m.Author, user.ID)
	}
	if existing.Role == "assistant" && existing.Conversation == user.Conversation && existing.Author == self {
		if s.createdHere(existing, id) {
			return errCreatedHere
		}
		return ErrDuplicate
	}
	if err := st.Patch(ctx, existing.ID, map[string]any{"reply_to": nil}); err != nil {
		s.directusError("detach_reply", err)
		return fmt.Errorf("detach the foreign reply %s: %w", existing.ID, err)
	}
	s.log.Warn("a foreign message claimed to answer the question: detached, the agent answers it", "message", user.ID,
		"foreign_reply", existing.ID, "author", existing.Author, "role", existing.Role, "conversation", existing.Conversation)
	return nil
}

// ErrNotYours means a caller asked to write into a conversation that is
// not theirs.
var ErrNotYours = errors.New("chat: the conversation is not yours")

// caller is what a store knows of whoever holds a Directus token: who they
// are, and a conversation as they can read it.
type caller interface {
	UserOf(ctx context.Context, token string) (string, error)
	ConversationAs(ctx context.Context, token, id string) (Conversation, error)
}

// MayWrite checks that the holder of a Directus token may have a question
// stored and answered in a conversation: they can read it and it is theirs
// (mayPost: its user_created or user_id, or it records no owner). It is
// how an open stream (no API_TOKEN) proves access before writing.
func (s *Service) MayWrite(ctx context.Context, token, conversation string) error {
	c, ok := s.opts.Store.(caller)
	if !ok {
		return ErrNoStore
	}
	user, err := c.UserOf(ctx, token)
	if err != nil {
		return err
	}
	conv, err := c.ConversationAs(ctx, token, conversation)
	if err != nil {
		return err
	}
	if !mayPost(conv, user, "") || user == "" {
		return ErrNotYours
	}
	return nil
}
