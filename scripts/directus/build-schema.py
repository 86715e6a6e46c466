#!/usr/bin/env python3
"""Creates the erleah collections on a Directus (DIRECTUS_URL, DIRECTUS_ADMIN_TOKEN)
through its REST API and writes the partial snapshot to argv[1]."""
import json, os, sys, urllib.request, urllib.error

URL = os.environ["DIRECTUS_URL"]
TOKEN = os.environ["DIRECTUS_ADMIN_TOKEN"]
COLLECTIONS = ["conferences", "sessions", "exhibitors", "speakers", "conversations", "messages",
               "agent_reflections", "reply_claims"]


def call(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(URL + path, data=data, method=method, headers={
        "Authorization": "Bearer " + TOKEN, "Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req) as r:
            raw = r.read()
            print(f"{method} {path} -> {r.status}", file=sys.stderr)
            return json.loads(raw) if raw else None
    except urllib.error.HTTPError as e:
        print(f"{method} {path} -> {e.code} {e.read().decode()}", file=sys.stderr)
        raise


# ---- field helpers -------------------------------------------------------
def string_pk():
    return {"field": "id", "type": "string",
            "meta": {"interface": "input", "readonly": False, "hidden": False, "width": "full",
                     "note": "Stable string id from the conference bundle."},
            "schema": {"is_primary_key": True, "length": 255, "has_auto_increment": False}}


def uuid_pk():
    return {"field": "id", "type": "uuid",
            "meta": {"interface": "input", "special": ["uuid"], "readonly": True, "hidden": True},
            "schema": {"is_primary_key": True, "length": 36, "has_auto_increment": False}}


def string(name, width="half", **schema):
    return {"field": name, "type": "string",
            "meta": {"interface": "input", "width": width}, "schema": schema or {}}


def text(name):
    return {"field": name, "type": "text",
            "meta": {"interface": "input-multiline", "width": "full"}, "schema": {}}


def date(name):
    return {"field": name, "type": "date",
            "meta": {"interface": "datetime", "width": "half"}, "schema": {}}


def timestamp(name):
    return {"field": name, "type": "timestamp",
            "meta": {"interface": "datetime", "width": "half"}, "schema": {}}


def boolean(name, **schema):
    return {"field": name, "type": "boolean",
            "meta": {"interface": "boolean", "special": ["cast-boolean"], "width": "half"},
            "schema": schema or {}}


def float_(name, **schema):
    return {"field": name, "type": "float",
            "meta": {"interface": "input", "width": "half"}, "schema": schema or {}}


def integer(name, **schema):
    return {"field": name, "type": "integer",
            "meta": {"interface": "input", "width": "half"}, "schema": schema or {}}


def json_code(name, note=None, **schema):
    meta = {"interface": "input-code", "special": ["cast-json"], "options": {"language": "json"},
            "width": "full"}
    if note:
        meta["note"] = note
    return {"field": name, "type": "json", "meta": meta, "schema": schema or {}}


def json_tags(name):
    return {"field": name, "type": "json",
            "meta": {"interface": "tags", "special": ["cast-json"], "width": "full"}, "schema": {}}


def dropdown(name, values, **schema):
    return {"field": name, "type": "string",
            "meta": {"interface": "select-dropdown", "width": "half", "display": "labels",
                     "options": {"choices": [{"text": v.capitalize(), "value": v} for v in values]}},
            "schema": schema or {}}


def m2o(name, key_type, template, note=None, **schema):
    meta = {"interface": "select-dropdown-m2o", "special": ["m2o"], "width": "half",
            "options": {"template": template}, "display": "related-values",
            "display_options": {"template": template}}
    if note:
        meta["note"] = note
    return {"field": name, "type": key_type, "meta": meta, "schema": schema or {}}


def created_updated():
    return [
        {"field": "date_created", "type": "timestamp",
         "meta": {"interface": "datetime", "special": ["date-created"], "readonly": True,
                  "hidden": True, "width": "half", "display": "datetime",
                  "display_options": {"relative": True}}, "schema": {}},
        {"field": "date_updated", "type": "timestamp",
         "meta": {"interface": "datetime", "special": ["date-updated"], "readonly": True,
                  "hidden": True, "width": "half", "display": "datetime",
                  "display_options": {"relative": True}}, "schema": {}},
    ]


def user_created():
    """The field Directus's app creates when "User Created" is ticked: the
    user whose token created the item, filled in by Directus itself."""
    return {"field": "user_created", "type": "uuid",
            "meta": {"special": ["user-created"], "interface": "select-dropdown-m2o",
                     "options": {"template": "{{avatar}} {{first_name}} {{last_name}}"},
                     "display": "user", "readonly": True, "hidden": True, "width": "half"},
            "schema": {}}


def collection(name, icon, template, note, fields):
    call("POST", "/collections", {
        "collection": name,
        "meta": {"icon": icon, "display_template": template, "note": note},
        "schema": {},
        "fields": fields,
    })


def relation(coll, field, related, on_delete, one_field=None):
    body = {"collection": coll, "field": field, "related_collection": related,
            "schema": {"on_delete": on_delete}}
    if one_field:
        body["meta"] = {"one_field": one_field}
    call("POST", "/relations", body)


# ---- collections ---------------------------------------------------------
collection("conferences", "event", "{{name}}", "Conferences the agent answers questions about.", [
    string_pk(), string("name", "full"), string("timezone"), string("venue"),
    date("starts_on"), date("ends_on"),
])
collection("sessions", "co_present", "{{title}}", "Conference programme items.", [
    string_pk(), m2o("conference", "string", "{{name}}"), string("title", "full"),
    text("description"), string("track"),
    dropdown("format", ["talk", "workshop", "panel", "keynote", "other"]),
    timestamp("starts_at"), timestamp("ends_at"), string("room"),
    json_tags("speaker_ids"), json_code("facets"),
])
collection("exhibitors", "storefront", "{{name}}", "Exhibitors at a conference.", [
    string_pk(), m2o("conference", "string", "{{name}}"), string("name", "full"),
    text("description"), string("booth"), string("website"), json_code("facets"),
])
collection("speakers", "record_voice_over", "{{name}}", "Speakers at a conference.", [
    string_pk(), m2o("conference", "string", "{{name}}"), string("name", "full"),
    string("job_title"), string("company"), text("bio"),
    json_tags("session_ids"), json_code("facets"),
])
collection("conversations", "forum", "{{title}}", "Attendee chats with the agent.", [
    uuid_pk(), m2o("conference", "string", "{{name}}"), string("user_id"), string("title"),
    dropdown("status", ["active", "closed"], default_value="active", is_nullable=False),
    *created_updated(), user_created(),
])
collection("messages", "chat", "{{role}}: {{messageText}}", "Messages of a conversation.", [
    uuid_pk(), m2o("conversation", "uuid", "{{title}}"),
    dropdown("role", ["user", "assistant"]), text("messageText"),
    dropdown("status", ["pending", "streaming", "completed", "failed"]),
    json_code("thinking_output", "Agent thinking steps shown to the attendee while the agent works.",
              default_value=None),
    json_code("metadata"),
    m2o("reply_to", "uuid", "{{role}}: {{messageText}}",
        "The user message this assistant message answers (at most one reply each).",
        is_unique=True),
    {"field": "replies", "type": "alias",
     "meta": {"interface": "list-o2m", "special": ["o2m"], "readonly": True, "width": "full",
              "options": {"template": "{{status}}: {{messageText}}"},
              "note": "The assistant message answering this one (lets the agent find unanswered messages)."}},
    *created_updated(), user_created(),
])

# The agent's reflection memory (memory.Directus): one lesson per reflection
# round, the whole memory.Lesson in `lesson`, a few of its fields beside it for
# browsing. conference is a plain string, not a relation: a lesson outlives
# nothing it would cascade from, and the agent reads the collection whole.
collection("agent_reflections", "psychology", "{{conference}}: {{failure}} ({{strategy}})",
           "The agent's reflection memory: what its reflection rounds learnt (a failing search's "
           "text, what was tried, whether it recovered). Holds no attendee identity. Only the "
           "agent's own policy may read or write it.", [
    uuid_pk(), string("conference", is_indexed=True), string("failure"), string("strategy"),
    boolean("recovered", default_value=False), float_("importance"),
    json_code("lesson", "The whole lesson (memory.Lesson) as the agent stores it."),
    *created_updated(),
])

# Leases on replies (chat.DirectusStore.Lease): which agent replica may write a
# reply. One row per generation, id "<reply id>:<generation>" given by the agent
# (not generated), so that of two replicas creating the same next generation
# exactly one succeeds (the primary key is unique). Only the agent's policy may
# read, create or update it.
collection("reply_claims", "lock", "{{reply}} #{{generation}} ({{owner}})",
           "Which agent replica may write a reply: one row per generation "
           "(id <reply>:<generation>); the latest generation whose expires is "
           "in the future holds the reply. Written by the agent only.", [
    {"field": "id", "type": "string",
     "meta": {"interface": "input", "readonly": False, "hidden": False, "width": "full",
              "note": "<reply id>:<generation>, chosen by the agent."},
     "schema": {"is_primary_key": True, "length": 255, "has_auto_increment": False}},
    string("reply", is_indexed=True), integer("generation"), string("owner"),
    timestamp("expires"),
])

for coll in ["sessions", "exhibitors", "speakers"]:
    relation(coll, "conference", "conferences", "CASCADE")
relation("conversations", "conference", "conferences", "SET NULL")
relation("messages", "conversation", "conversations", "CASCADE")
relation("messages", "reply_to", "messages", "SET NULL", one_field="replies")
# Who wrote a conversation or a message (the app's "User Created" relation):
# the agent answers a message only when its author owns the conversation.
for coll in ["conversations", "messages"]:
    call("POST", "/relations", {"collection": coll, "field": "user_created",
                                "related_collection": "directus_users", "schema": {}})

query = "&".join("includeCollections=" + c for c in COLLECTIONS)
snap = call("GET", "/schema/snapshot?" + query)["data"]
with open(sys.argv[1], "w") as f:
    json.dump(snap, f, indent=2)
    f.write("\n")
print(f"wrote {sys.argv[1]}: {len(snap['collections'])} collections, {len(snap['fields'])} fields, "
      f"{len(snap['relations'])} relations", file=sys.stderr)
