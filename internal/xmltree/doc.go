// Package xmltree reads an Oozie application document (coordinator.xml, a dataset file,
// bundle.xml) into a small element tree that remembers line numbers, and checks the tree
// the way the documents' XML schemas do: required and allowed attributes, simple-content
// and element-only elements, and ordered sequences of child elements with occurrence bounds.
//
// The coordinator and bundle parsers share it. It knows nothing of Oozie error codes: every
// failure is an *Error whose Kind tells a document that is not well-formed XML (Malformed)
// from one that breaks a schema rule (Invalid), with the element or line at fault in Where,
// so that each parser can turn it into its own coded error without changing the text.
//
// Reading is deliberately strict and bounded. The decoder runs in strict mode, a DOCTYPE or
// any other directive is refused (as Oozie's parser refuses it, which also rules out entity
// expansion), element nesting is capped by the caller's depth limit, and only UTF-8,
// US-ASCII and ISO-8859-1 documents are accepted.
package xmltree
