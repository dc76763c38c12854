package coordinator

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/oozietime"
)

// ActionDoc is a materialized action as stored in store.CoordAction.ActionXML: the job's
// definition for one nominal time, with the events resolved and the SLA evaluated. The input
// check reads it back with ParseActionXML.
type ActionDoc struct {
	// Job is the definition the action was materialized from (without start and end).
	Job *Job
	// Number is the action number (1-based).
	Number int
	// NominalTime and ActualTime are the action's nominal and creation times.
	NominalTime time.Time
	ActualTime  time.Time
	// DataIns and DataOuts are the resolved events.
	DataIns  []ResolvedEvent
	DataOuts []ResolvedEvent
	// SLA is the sla:info block evaluated in the sla-create phase, or nil.
	SLA *SLADef
}

// XML renders the action document.
func (a *ActionDoc) XML() string { return marshalDoc(a.doc()) }

// doc builds the action document's stored form.
func (a *ActionDoc) doc() *xApp {
	doc := a.Job.jobDoc()
	doc.Start, doc.End = "", ""
	doc.InstanceNumber = strconv.Itoa(a.Number)
	doc.NominalTime = a.Job.Format.Format(a.NominalTime)
	doc.ActualTime = a.Job.Format.Format(a.ActualTime)
	if doc.InputEvents != nil {
		for i := range doc.InputEvents.DataIns {
			setResolved(&doc.InputEvents.DataIns[i], a.DataIns[i])
		}
	}
	if doc.OutputEvents != nil {
		for i := range doc.OutputEvents.DataOuts {
			setResolved(&doc.OutputEvents.DataOuts[i], a.DataOuts[i])
		}
	}
	doc.Action.SLA = nil
	if a.SLA != nil {
		doc.Action.SLA = slaDoc(a.SLA)
	}
	return doc
}

// setResolved replaces an event's instance expressions with its resolution.
func setResolved(x *xEvent, ev ResolvedEvent) {
	x.Instances, x.StartInstance, x.EndInstance = nil, nil, nil
	if len(ev.URIs) > 0 {
		uris := strings.Join(ev.URIs, instanceSeparator)
		x.URIs = &uris
	}
	if len(ev.Unresolved) > 0 {
		un := strings.Join(ev.Unresolved, instanceSeparator)
		x.Unresolved = &un
	}
}

// ParseActionXML reads an action document written by ActionDoc.XML. props is the job
// configuration (the action's run configuration).
func ParseActionXML(text string, props *conf.Properties, format oozietime.Format) (*ActionDoc, error) {
	doc, err := unmarshalDoc(text)
	if err != nil {
		return nil, err
	}
	// The job part is read with LoadJob; the action document has no start and end, which
	// LoadJob needs, so give it the nominal time for both (they are not used afterwards).
	doc.Start, doc.End = doc.NominalTime, doc.NominalTime
	saved := doc.Action.SLA
	job, err := LoadJob(marshalDoc(doc), props, format)
	if err != nil {
		return nil, err
	}
	a := &ActionDoc{Job: job, SLA: loadSLA(saved)}
	if a.Number, err = strconv.Atoi(doc.InstanceNumber); err != nil {
		return nil, fmt.Errorf("stored coordinator action: instance-number: %w", err)
	}
	if a.NominalTime, err = format.Parse(doc.NominalTime); err != nil {
		return nil, fmt.Errorf("stored coordinator action: nominal time: %w", err)
	}
	if a.ActualTime, err = format.Parse(doc.ActualTime); err != nil {
		return nil, fmt.Errorf("stored coordinator action: actual time: %w", err)
	}
	if doc.InputEvents != nil {
		for i, x := range doc.InputEvents.DataIns {
			a.DataIns = append(a.DataIns, resolvedFromDoc(x, job.DataIns[i].Dataset))
		}
	}
	if doc.OutputEvents != nil {
		for i, x := range doc.OutputEvents.DataOuts {
			ev := resolvedFromDoc(x, job.DataOuts[i].Dataset)
			ev.NoCleanup = job.DataOuts[i].NoCleanup
			a.DataOuts = append(a.DataOuts, ev)
		}
	}
	return a, nil
}

// resolvedFromDoc reads an event's resolution.
func resolvedFromDoc(x xEvent, ds *Dataset) ResolvedEvent {
	ev := ResolvedEvent{Name: x.Name, Dataset: ds}
	if x.URIs != nil && strings.TrimSpace(*x.URIs) != "" {
		ev.URIs = strings.Split(strings.TrimSpace(*x.URIs), instanceSeparator)
	}
	if x.Unresolved != nil && strings.TrimSpace(*x.Unresolved) != "" {
		ev.Unresolved = strings.Split(strings.TrimSpace(*x.Unresolved), instanceSeparator)
	}
	return ev
}

// actionContext returns the EL action context of the document.
func (a *ActionDoc) actionContext(jobID string) *ActionContext {
	return a.Job.actionContextFor(jobID, a.Number, a.NominalTime, a.ActualTime)
}
