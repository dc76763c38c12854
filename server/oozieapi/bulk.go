package oozieapi

// BulkResponse is one entry of GET jobs?bulk=…: a coordinator action with the coordinator
// and bundle it belongs to (both without their children or configuration).
type BulkResponse struct {
	Bundle      BundleJob         `json:"bulkbundle"`
	Coordinator CoordinatorJob    `json:"bulkcoord"`
	Action      CoordinatorAction `json:"bulkaction"`
}

// BulkList is the answer of GET jobs?bulk=…: one page of matching coordinator actions, the
// number matching, and the page asked for (offset is 1-based).
type BulkList struct {
	Responses []BulkResponse `json:"bulkresponses"`
	Total     int            `json:"total"`
	Offset    int            `json:"offset"`
	Len       int            `json:"len"`
}

// MarshalJSON writes the list with bulkresponses as [] when there are none.
func (l BulkList) MarshalJSON() ([]byte, error) { return marshalDocument(l) }

func (l BulkList) form() (any, bool) {
	type plain BulkList
	if l.Responses == nil {
		l.Responses = []BulkResponse{}
	}
	return plain(l), false
}

// ExternalIDMatch is the answer of GET jobs?external-id=…: the id of the workflow job
// submitted with that external id, null when there is none.
type ExternalIDMatch struct {
	ID *string `json:"id"`
}
