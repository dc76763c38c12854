// Package oozieapi holds the JSON documents of Oozie's REST API (v1/v2) as Go types, defined
// once for both sides: gozie's server (package server/jobs) encodes them and its client
// (package server/client) decodes them, from gozie or from an Oozie server.
//
// Field names are Oozie's (appPath, lastModTime, externalChildIDs, ...). Oozie sends JSON null
// for every absent value; the types here do the same: empty strings of a WorkflowJob or
// WorkflowAction are encoded as null, and an unset Date is null. Decoding accepts both null
// and "" as the empty string.
//
// Dates travel in RFC 822 form, "Thu, 01 Jan 2009 00:00:00 GMT", in the time zone the request
// asked for with the timezone parameter (GMT by default). Date formats a time in the location
// it carries, so the server converts times with In before encoding.
package oozieapi
