package cmd

import "testing"

// TestSecretValues: the values of secret-looking variables are redacted
// whatever their length from four characters up (hunter2 too), and so are
// the credentials of URL-valued variables; values too short or too common
// to be secrets (1, true) and paths are not, since replacing them would
// garble every output they occur in.
func TestSecretValues(t *testing.T) {
	env := []string{
		"DB_PASSWORD=hunter2",
		"MYSQL_PWD=abcd",
		"SSHPASS=p4ss",
		"SMTP_PASSWD=mailpw99",
		"SENTRY_DSN=https://abc123@o1.ingest.sentry.io/42",
		"DATABASE_URL=postgres://app:s3cr3t-pw@db.internal:5432/app",
		"API_TOKEN=tok",
		"FEATURE_SECRET=1",
		"USE_TOKEN=true",
		"SSH_KEY_PATH=/home/me/.ssh/id",
		"EDITOR=vim",
		"HOMEPAGE=https://example.com/",
	}
	r := &redactor{}
	r.add(secretValues(env)...)
	cases := []struct{ in, want string }{
		{"password hunter2 used", "password [REDACTED] used"},
		{"abcd p4ss mailpw99", "[REDACTED] [REDACTED] [REDACTED]"},
		{"dsn https://abc123@o1.ingest.sentry.io/42", "dsn [REDACTED]"},
		{"url postgres://app:s3cr3t-pw@db.internal:5432/app", "url [REDACTED]"},
		{"psql: password s3cr3t-pw rejected", "psql: password [REDACTED] rejected"},
		{"tok 1 true /home/me/.ssh/id vim https://example.com/", "tok 1 true /home/me/.ssh/id vim https://example.com/"},
	}
	for _, tc := range cases {
		if got := r.string(tc.in); got != tc.want {
			t.Errorf("redact(%q): got %q, want %q", tc.in, got, tc.want)
		}
	}
}
