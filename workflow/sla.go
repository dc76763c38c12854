package workflow

// sla parses an <sla:info> block of namespace uri:oozie:sla:0.1 or 0.2.
// Values are trimmed and kept unresolved.
func (p *parser) sla(e *elem) *SLAInfo {
	ns := e.Name.Space
	c := newCursor(e, ns, "")
	c.attrs(e, nil)
	s := &SLAInfo{Namespace: ns}
	if ns == nsSLA01 {
		s.AppName = c.reqText("app-name")
		s.NominalTime = c.reqText("nominal-time")
		s.ShouldStart = c.reqText("should-start")
		s.ShouldEnd = c.reqText("should-end")
		s.ParentClientID = c.text("parent-client-id")
		s.ParentSLAID = c.text("parent-sla-id")
		s.NotificationMsg = c.text("notification-msg")
		s.AlertContact = c.reqText("alert-contact")
		s.DevContact = c.reqText("dev-contact")
		s.QAContact = c.reqText("qa-contact")
		s.SEContact = c.reqText("se-contact")
		s.AlertFrequency = c.text("alert-frequency")
		s.AlertPercentage = c.text("alert-percentage")
		s.UpstreamApps = c.text("upstream-apps")
	} else {
		s.NominalTime = c.reqText("nominal-time")
		s.ShouldStart = c.text("should-start")
		s.ShouldEnd = c.reqText("should-end")
		s.MaxDuration = c.text("max-duration")
		s.AlertEvents = c.text("alert-events")
		s.AlertContact = c.text("alert-contact")
		s.NotificationMsg = c.text("notification-msg")
		s.UpstreamApps = c.text("upstream-apps")
	}
	p.keep(c.end())
	return s
}
