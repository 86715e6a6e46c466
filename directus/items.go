package directus

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"reflect"
	"strconv"
	"strings"
)

// pageSize is the number of items ReadAll asks for per request.
const pageSize = 500

// Query selects items (https://directus.io/docs/reference/query). The zero
// value asks for Directus's defaults.
type Query struct {
	Fields []string       // fields to return, e.g. "id", "conversation.title"; empty: all
	Filter map[string]any // filter object, sent as filter=<json>; nil: none
	Sort   []string       // e.g. "-date_created", "id"; empty: unsorted
	Limit  int            // 0: Directus's default (100); -1: all
	Offset int            // items to skip
}

// values encodes q as query parameters.
func (q Query) values() (url.Values, error) {
	v := url.Values{}
	if len(q.Fields) > 0 {
		v.Set("fields", strings.Join(q.Fields, ","))
	}
	if q.Filter != nil {
		f, err := marshal(q.Filter)
		if err != nil {
			return nil, fmt.Errorf("encode filter: %w", err)
		}
		v.Set("filter", string(f))
	}
	if len(q.Sort) > 0 {
		v.Set("sort", strings.Join(q.Sort, ","))
	}
	if q.Limit != 0 {
		v.Set("limit", strconv.Itoa(q.Limit))
	}
	if q.Offset > 0 {
		v.Set("offset", strconv.Itoa(q.Offset))
	}
	return v, nil
}

// itemsPath is /items/{collection}[/{id}], escaped.
func itemsPath(collection string, id ...string) string {
	p := "/items/" + url.PathEscape(collection)
	for _, part := range id {
		p += "/" + url.PathEscape(part)
	}
	return p
}

func get(path string, query url.Values) request {
	return request{method: http.MethodGet, path: path, query: query, retry: true}
}

// withBody returns r with body encoded as JSON.
func withBody(r request, body any) (request, error) {
	b, err := encodeBody(body)
	if err != nil {
		return r, r.wrap(fmt.Errorf("encode body: %w", err))
	}
	r.body = b
	return r, nil
}

// ReadItems reads the items of collection selected by q and decodes them
// into dst, a pointer to a slice (GET /items/{collection}). It is retried.
func (c *Client) ReadItems(ctx context.Context, collection string, q Query, dst any) error {
	r := get(itemsPath(collection), nil)
	v, err := q.values()
	if err != nil {
		return r.wrap(err)
	}
	r.query = v
	return c.call(ctx, r, dst)
}

// ReadAll reads every item selected by q, in pages of 500 (offset paging),
// and appends them to dst, a pointer to a slice. Items are sorted by q.Sort,
// or by "id" when it is empty so that pages are stable. It starts at
// q.Offset and ignores q.Limit. Items written while it pages may be missed
// or seen twice.
func (c *Client) ReadAll(ctx context.Context, collection string, q Query, dst any) error {
	out := reflect.ValueOf(dst)
	if out.Kind() != reflect.Pointer || out.IsNil() || out.Elem().Kind() != reflect.Slice {
		return fmt.Errorf("directus: read all %s: dst must be a non-nil pointer to a slice, not %T", collection, dst)
	}
	if len(q.Sort) == 0 {
		q.Sort = []string{"id"}
	}
	q.Limit = pageSize
	for {
		page := reflect.New(out.Elem().Type())
		if err := c.ReadItems(ctx, collection, q, page.Interface()); err != nil {
			return err
		}
		n := page.Elem().Len()
		out.Elem().Set(reflect.AppendSlice(out.Elem(), page.Elem()))
		if n < pageSize {
			return nil
		}
		q.Offset += n
	}
}

// ReadItem reads one item (GET /items/{collection}/{id}) into dst, with only
// fields when given. A missing item is a 403 FORBIDDEN *Error, like an item
// the token may not read. It is retried.
func (c *Client) ReadItem(ctx context.Context, collection, id string, fields []string, dst any) error {
	v, _ := Query{Fields: fields}.values()
	return c.call(ctx, get(itemsPath(collection, id), v), dst)
}

// CreateItem creates one item (POST /items/{collection}) and decodes the
// created item into dst (nil: discard). It is never retried.
func (c *Client) CreateItem(ctx context.Context, collection string, item any, dst any) error {
	r, err := withBody(request{method: http.MethodPost, path: itemsPath(collection)}, item)
	if err != nil {
		return err
	}
	return c.call(ctx, r, dst)
}

// CreateItems creates several items in one request (POST /items/{collection}
// with an array); items must encode as a JSON array. It is never retried.
func (c *Client) CreateItems(ctx context.Context, collection string, items any) error {
	r, err := withBody(request{method: http.MethodPost, path: itemsPath(collection)}, items)
	if err != nil {
		return err
	}
	return c.call(ctx, r, nil)
}

// UpdateItem applies patch to one item (PATCH /items/{collection}/{id}) and
// decodes the updated item into dst (nil: discard). It is retried: applying
// the same patch twice gives the same item.
func (c *Client) UpdateItem(ctx context.Context, collection, id string, patch any, dst any) error {
	r := request{method: http.MethodPatch, path: itemsPath(collection, id), retry: true}
	r, err := withBody(r, patch)
	if err != nil {
		return err
	}
	return c.call(ctx, r, dst)
}

// DeleteItems deletes the items with the given primary keys (DELETE
// /items/{collection} with a JSON array). No ids: nothing is sent. It is
// retried.
func (c *Client) DeleteItems(ctx context.Context, collection string, ids []string) error {
	if len(ids) == 0 {
		return nil
	}
	r := request{method: http.MethodDelete, path: itemsPath(collection), retry: true}
	r, err := withBody(r, ids)
	if err != nil {
		return err
	}
	return c.call(ctx, r, nil)
}

// Count returns the number of items of collection matching filter (nil: all)
// with aggregate[count]=*. It accepts the count as a number (SQLite) or as a
// string (PostgreSQL). It is retried.
func (c *Client) Count(ctx context.Context, collection string, filter map[string]any) (int, error) {
	r := get(itemsPath(collection), nil)
	v, err := Query{Filter: filter}.values()
	if err != nil {
		return 0, r.wrap(err)
	}
	v.Set("aggregate[count]", "*")
	r.query = v
	var rows []struct {
		Count json.RawMessage `json:"count"`
	}
	if err := c.call(ctx, r, &rows); err != nil {
		return 0, err
	}
	if len(rows) == 0 {
		return 0, nil
	}
	n, err := strconv.Atoi(strings.Trim(string(rows[0].Count), `"`))
	if err != nil {
		return 0, r.wrap(fmt.Errorf("unexpected count %s", rows[0].Count))
	}
	return n, nil
}
