package conf

import (
	"bufio"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"strings"
)

// ReadConfigurationXML parses a Hadoop configuration document:
//
//	<configuration>
//	  <property>
//	    <name>oozie.wf.application.path</name>
//	    <value>hdfs://nn:8020/apps/wf</value>
//	    <final>true</final>            (optional)
//	    <description>...</description> (optional, ignored)
//	  </property>
//	</configuration>
//
// This is the format of Hadoop's *-site.xml files, of gozie-site.xml and of the body of a REST
// job submission. As in Hadoop, names are trimmed and values are kept as written, nested
// <configuration> elements are read in place, the attribute form <property name="" value=""
// final=""/> is accepted, unknown children of <property> (such as <source> or <tag>) are
// ignored, and a property without a <value> is skipped; an empty <value/> is the empty string.
// A property repeated after a final definition keeps the final value.
//
// Unlike Hadoop, a property without a name is an error, and so is any DOCTYPE (Oozie's parser
// refuses them too, which rules out entity tricks). Errors are *Error values naming name and
// the line, e.g. `job.xml:7: element <prop> is not <property>`. The document may declare
// UTF-8, US-ASCII or ISO-8859-1 encoding.
func ReadConfigurationXML(r io.Reader, name string) (*Properties, error) {
	p := &configParser{dec: xml.NewDecoder(r), name: name, props: &Properties{}}
	p.dec.Strict = true
	p.dec.CharsetReader = charsetReader
	if err := p.document(); err != nil {
		return nil, err
	}
	return p.props, nil
}

// configParser walks the token stream of one configuration document.
type configParser struct {
	dec   *xml.Decoder
	name  string
	props *Properties
}

// fail returns an *Error at the decoder's current line.
func (p *configParser) fail(format string, args ...any) error {
	line, _ := p.dec.InputPos()
	return &Error{Source: p.name, Line: line, Err: fmt.Errorf(format, args...)}
}

// token returns the next token, turning the decoder's errors into *Error.
func (p *configParser) token() (xml.Token, error) {
	tok, err := p.dec.Token()
	if err == nil {
		if d, ok := tok.(xml.Directive); ok {
			return nil, p.fail("XML directive <!%s> is not allowed", firstWord(string(d)))
		}
		return tok, nil
	}
	var se *xml.SyntaxError
	if errors.As(err, &se) {
		return nil, &Error{Source: p.name, Line: se.Line, Err: fmt.Errorf("invalid XML: %s", se.Msg)}
	}
	if errors.Is(err, io.EOF) {
		return nil, err
	}
	return nil, &Error{Source: p.name, Err: fmt.Errorf("reading XML: %w", err)}
}

// document reads the root <configuration> element and checks nothing but comments, processing
// instructions and blanks surround it.
func (p *configParser) document() error {
	seenRoot := false
	for {
		tok, err := p.token()
		if errors.Is(err, io.EOF) {
			if !seenRoot {
				return &Error{Source: p.name, Err: errors.New("no <configuration> element")}
			}
			return nil
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if seenRoot {
				return p.fail("element <%s> after the <configuration> element", t.Name.Local)
			}
			if t.Name.Local != "configuration" {
				return p.fail("top-level element <%s> is not <configuration>", t.Name.Local)
			}
			seenRoot = true
			if err := p.configuration(); err != nil {
				return err
			}
		case xml.CharData:
			if strings.TrimSpace(string(t)) != "" {
				return p.fail("text outside the <configuration> element")
			}
		}
	}
}

// configuration reads the children of a <configuration> element up to its end tag.
func (p *configParser) configuration() error {
	for {
		tok, err := p.token()
		if err != nil {
			return p.unexpectedEOF(err, "configuration")
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "configuration":
				if err := p.configuration(); err != nil {
					return err
				}
			case "property":
				if err := p.property(t); err != nil {
					return err
				}
			default:
				return p.fail("element <%s> is not <property>", t.Name.Local)
			}
		case xml.EndElement:
			return nil
		}
	}
}

// property reads one <property> element whose start tag is start.
func (p *configParser) property(start xml.StartElement) error {
	line, _ := p.dec.InputPos()
	var name, value *string
	final := false
	for _, a := range start.Attr {
		v := a.Value
		switch a.Name.Local {
		case "name":
			v = javaTrim(v)
			name = &v
		case "value":
			value = &v
		case "final":
			final = v == "true"
		}
	}
	for {
		tok, err := p.token()
		if err != nil {
			return p.unexpectedEOF(err, "property")
		}
		switch t := tok.(type) {
		case xml.StartElement:
			text, err := p.text(t.Name.Local)
			if err != nil {
				return err
			}
			switch t.Name.Local {
			case "name":
				text = javaTrim(text)
				name = &text
			case "value":
				value = &text
			case "final":
				final = javaTrim(text) == "true"
			}
		case xml.EndElement:
			if name == nil || *name == "" {
				return &Error{Source: p.name, Line: line, Err: errors.New("<property> without a <name>")}
			}
			if value == nil {
				return nil
			}
			if old, ok := p.props.Lookup(*name); ok && old.Final {
				return nil
			}
			p.props.Put(Property{Name: *name, Value: *value, Final: final, Line: line})
			return nil
		}
	}
}

// text returns the character data of a simple element such as <name> or <value>, whose
// start tag has been read, up to and including its end tag.
func (p *configParser) text(element string) (string, error) {
	var b strings.Builder
	for {
		tok, err := p.token()
		if err != nil {
			return "", p.unexpectedEOF(err, element)
		}
		switch t := tok.(type) {
		case xml.CharData:
			b.Write(t)
		case xml.StartElement:
			return "", p.fail("unexpected element <%s> inside <%s>", t.Name.Local, element)
		case xml.EndElement:
			return b.String(), nil
		}
	}
}

// unexpectedEOF turns an end of input inside element into an error.
func (p *configParser) unexpectedEOF(err error, element string) error {
	if errors.Is(err, io.EOF) {
		return p.fail("unexpected end of document inside <%s>", element)
	}
	return err
}

// firstWord returns the first blank-separated word of s, for short error messages.
func firstWord(s string) string {
	if f := strings.Fields(s); len(f) > 0 {
		return f[0]
	}
	return s
}

// charsetReader decodes the single-byte encodings a configuration file may declare besides
// UTF-8, which encoding/xml handles itself.
func charsetReader(charset string, input io.Reader) (io.Reader, error) {
	switch strings.ToLower(charset) {
	case "iso-8859-1", "iso8859-1", "latin1", "latin-1", "us-ascii", "ascii":
		return &latin1Reader{r: bufio.NewReader(input)}, nil
	}
	return nil, fmt.Errorf("unsupported encoding %q (use UTF-8)", charset)
}

// latin1Reader converts ISO-8859-1 bytes (of which US-ASCII is a subset) to UTF-8.
type latin1Reader struct {
	r       *bufio.Reader
	pending []byte
}

// Read fills p with the UTF-8 encoding of the input; the bytes of a character that do not
// fit are kept and sent first on the next call.
func (l *latin1Reader) Read(p []byte) (int, error) {
	n := 0
	for n < len(p) {
		if len(l.pending) > 0 {
			c := copy(p[n:], l.pending)
			l.pending = l.pending[c:]
			n += c
			continue
		}
		b, err := l.r.ReadByte()
		if err != nil {
			if n > 0 {
				return n, nil
			}
			return 0, err
		}
		if b < 0x80 {
			p[n] = b
			n++
			continue
		}
		l.pending = []byte(string(rune(b)))
	}
	return n, nil
}

// WriteConfigurationXML writes props as a Hadoop configuration document (with an XML
// declaration, two-space indentation and <final>true</final> for final entries) that
// ReadConfigurationXML and Hadoop read back unchanged. Characters that XML 1.0 cannot carry
// (most control characters) are written as U+FFFD.
func WriteConfigurationXML(w io.Writer, props *Properties) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(xml.Header)
	bw.WriteString("<configuration>\n")
	for _, e := range props.Entries() {
		bw.WriteString("  <property>\n    <name>")
		xml.EscapeText(bw, []byte(e.Name))
		bw.WriteString("</name>\n    <value>")
		xml.EscapeText(bw, []byte(e.Value))
		bw.WriteString("</value>\n")
		if e.Final {
			bw.WriteString("    <final>true</final>\n")
		}
		bw.WriteString("  </property>\n")
	}
	bw.WriteString("</configuration>\n")
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing configuration XML: %w", err)
	}
	return nil
}
