package daemon

import (
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gozie/gozie/clock"
	"github.com/gozie/gozie/conf"
	"github.com/gozie/gozie/oozietime"
	"github.com/gozie/gozie/server"
	"github.com/gozie/gozie/server/jobs"
	"github.com/gozie/gozie/server/slaapi"
	"github.com/gozie/gozie/sla"
	"github.com/gozie/gozie/store"
)

// newSLA builds the SLA service from the configuration: its webhooks and
// the email alerts through the SMTP server of the email action.
func newSLA(cfg *conf.Server, st store.Store, clk clock.Clock, log *slog.Logger, reg prometheus.Registerer) (*sla.Service, error) {
	tf, err := oozietime.NewFormat(cfg.ProcessingTimezone)
	if err != nil {
		return nil, fmt.Errorf("SLA service: %w", err)
	}
	var notifiers []sla.Notifier
	events, err := sla.ParseEvents(cfg.SLA.WebhookEvents)
	if err != nil {
		return nil, fmt.Errorf("SLA webhooks: %w", err)
	}
	for _, u := range strings.Split(cfg.SLA.WebhookURLs, ",") {
		if u = strings.TrimSpace(u); u == "" {
			continue
		}
		notifiers = append(notifiers, &sla.Webhook{URL: u, Events: events,
			Client: &http.Client{Timeout: cfg.SLA.WebhookTimeout},
			Retry:  sla.Retry{Attempts: cfg.SLA.WebhookAttempts, Backoff: cfg.SLA.WebhookBackoff, Clock: clk}})
	}
	if cfg.SLA.EmailEnabled {
		m := &sla.Email{Host: cfg.Email.Host, Port: cfg.Email.Port, From: cfg.Email.From, Timeout: cfg.Email.Timeout,
			DefaultEvents: cfg.SLA.DefaultAlertEvents, Retry: sla.Retry{Attempts: 3, Clock: clk}}
		if cfg.Email.Auth {
			m.Username, m.Password = cfg.Email.Username, cfg.Email.Password
		}
		notifiers = append(notifiers, m)
	}
	return sla.New(sla.Config{Store: st, Clock: clk, Logger: log, ParseTime: tf.Parse, Location: tf.Location(),
		DefaultAlertEvents: cfg.SLA.DefaultAlertEvents, DisableAlertsOlderThan: cfg.SLA.DisableAlertsOlderThan,
		Notifiers: notifiers, Metrics: reg})
}

// registerSLA adds the SLA endpoint to the REST server.
func registerSLA(srv *server.Server, cfg *conf.Server, st store.Store, clk clock.Clock, log *slog.Logger) error {
	tf, err := oozietime.NewFormat(cfg.ProcessingTimezone)
	if err != nil {
		return err
	}
	return slaapi.Register(srv, slaapi.Deps{Store: st, Clock: clk, ParseTime: tf.Parse, Logger: log})
}

// slaControl gives the job endpoints the SLA commands, or nothing when the
// service is off (a nil *sla.Service must not become a non-nil interface).
func slaControl(s *sla.Service) jobs.SLAControl {
	if s == nil {
		return nil
	}
	return s
}
