// Command ferretdb runs FerretDB v1 (MongoDB wire protocol) on its PostgreSQL or SQLite backend.
//
// It embeds github.com/FerretDB/FerretDB/ferretdb instead of using the upstream CLI,
// because `go install github.com/FerretDB/FerretDB/cmd/ferretdb@v1.24.2` builds a binary
// that panics at init (build/version/version.txt is not in the module zip; FerretDB#2982).
package main

import (
	"context"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"log/slog"
	"math"
	"net"
	"net/http"
	_ "net/http/pprof" // served only with -debug-addr
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	addr := flag.String("listen-addr", "127.0.0.1:27017", "TCP address to listen on")
	unix := flag.String("listen-unix", "", "also listen on this Unix socket (clients on the same machine skip the TCP stack)")
	handler := flag.String("handler", "postgresql", "backend: postgresql or sqlite")
	pgURL := flag.String("postgresql-url", "postgres://postgres@127.0.0.1:5432/ferretdb", "with -handler postgresql: the database to keep collections in")
	dir := flag.String("data-dir", "./data", "with -handler sqlite: directory for the database files (created if missing)")
	level := flag.String("log-level", "warn", "log level: debug, info, warn, error")
	ping := flag.String("ping", "", "do not serve: send the MongoDB `ping` command to this host:port (or Unix socket path) until it answers ok")
	timeout := flag.Duration("timeout", 120*time.Second, "with -ping: give up after this long")
	debug := flag.String("debug-addr", "", "if set, serve Go's profiler (/debug/pprof/) on this TCP address, e.g. 127.0.0.1:6060")
	flag.Parse()

	if *ping != "" {
		os.Exit(pingLoop(*ping, *timeout))
	}

	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(*level)); err != nil {
		log.Fatalf("bad -log-level: %v", err)
	}

	config := ferretdb.Config{
		Listener: ferretdb.ListenerConfig{TCP: *addr, Unix: *unix},
		Handler:  *handler,
		Logger:   slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: lvl})),
	}
	where := ""
	switch *handler {
	case "postgresql":
		config.PostgreSQLURL = *pgURL
		where = *pgURL
	case "sqlite":
		abs, err := filepath.Abs(*dir)
		if err != nil {
			log.Fatal(err)
		}
		if err = os.MkdirAll(abs, 0o755); err != nil {
			log.Fatal(err)
		}
		config.SQLiteURL = "file:" + abs + "/" // must end with '/', directory must exist
		where = abs
	default:
		log.Fatalf("bad -handler %q: postgresql or sqlite", *handler)
	}

	if *debug != "" {
		go func() { log.Printf("ferretdb: profiler stopped: %v", http.ListenAndServe(*debug, nil)) }()
	}

	f, err := ferretdb.New(&config)
	if err != nil {
		log.Fatal(err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	log.Printf("ferretdb: listening on %s %s, %s backend, data in %s", *addr, *unix, *handler, where)
	if err = f.Run(ctx); err != nil && ctx.Err() == nil {
		log.Fatal(err)
	}
	log.Print("ferretdb: stopped")
}

// pingLoop sends {ping: 1, $db: "admin"} as an OP_MSG until the server replies ok: 1
// (a real round trip through FerretDB's command handler, not just an open port).
func pingLoop(addr string, timeout time.Duration) int {
	deadline := time.Now().Add(timeout)
	var last error
	for time.Now().Before(deadline) {
		if last = pingOnce(addr); last == nil {
			fmt.Printf("mongo ping ok: %s\n", addr)
			return 0
		}
		time.Sleep(250 * time.Millisecond)
	}
	fmt.Fprintf(os.Stderr, "mongo ping to %s failed for %s: %v\n", addr, timeout, last)
	return 1
}

func pingOnce(addr string) error {
	network := "tcp"
	if filepath.IsAbs(addr) {
		network = "unix"
	}
	conn, err := net.DialTimeout(network, addr, 2*time.Second)
	if err != nil {
		return err
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(5 * time.Second))

	// BSON document {ping: int32(1), $db: "admin"}.
	var doc []byte
	doc = append(doc, 0x10)
	doc = append(doc, "ping\x00"...)
	doc = binary.LittleEndian.AppendUint32(doc, 1)
	doc = append(doc, 0x02)
	doc = append(doc, "$db\x00"...)
	doc = binary.LittleEndian.AppendUint32(doc, uint32(len("admin")+1))
	doc = append(doc, "admin\x00"...)
	doc = append(doc, 0x00)
	doc = append(binary.LittleEndian.AppendUint32(nil, uint32(len(doc)+4)), doc...)

	// OP_MSG (opCode 2013): header, flagBits, one kind-0 section.
	body := append(binary.LittleEndian.AppendUint32(nil, 0), 0x00)
	body = append(body, doc...)
	msg := binary.LittleEndian.AppendUint32(nil, uint32(16+len(body)))
	msg = binary.LittleEndian.AppendUint32(msg, 1)    // requestID
	msg = binary.LittleEndian.AppendUint32(msg, 0)    // responseTo
	msg = binary.LittleEndian.AppendUint32(msg, 2013) // OP_MSG
	msg = append(msg, body...)
	if _, err = conn.Write(msg); err != nil {
		return err
	}

	var hdr [16]byte
	if _, err = io.ReadFull(conn, hdr[:]); err != nil {
		return err
	}
	n := binary.LittleEndian.Uint32(hdr[0:4])
	if op := binary.LittleEndian.Uint32(hdr[12:16]); op != 2013 || n < 16+5+5 || n > 16<<20 {
		return fmt.Errorf("unexpected reply: opCode %d, length %d", op, n)
	}
	rest := make([]byte, n-16)
	if _, err = io.ReadFull(conn, rest); err != nil {
		return err
	}
	if rest[4] != 0 {
		return errors.New("unexpected OP_MSG section kind")
	}
	return checkOK(rest[5:])
}

// checkOK walks the top-level elements of a BSON reply looking for ok == 1.
func checkOK(d []byte) error {
	if len(d) < 5 {
		return errors.New("short BSON reply")
	}
	i := 4
	for i < len(d) && d[i] != 0x00 {
		typ := d[i]
		i++
		start := i
		for i < len(d) && d[i] != 0x00 {
			i++
		}
		name := string(d[start:i])
		i++
		var size int
		switch typ {
		case 0x01, 0x12, 0x09, 0x11: // double, int64, datetime, timestamp
			size = 8
		case 0x10: // int32
			size = 4
		case 0x08: // bool
			size = 1
		case 0x0A: // null
			size = 0
		case 0x07: // ObjectId
			size = 12
		case 0x02: // string
			if i+4 > len(d) {
				return errors.New("truncated BSON")
			}
			size = 4 + int(binary.LittleEndian.Uint32(d[i:]))
		case 0x03, 0x04: // document, array
			if i+4 > len(d) {
				return errors.New("truncated BSON")
			}
			size = int(binary.LittleEndian.Uint32(d[i:]))
		default:
			return fmt.Errorf("unexpected BSON type 0x%02x in reply", typ)
		}
		if i+size > len(d) {
			return errors.New("truncated BSON")
		}
		if name == "ok" {
			var ok float64
			switch typ {
			case 0x01:
				ok = math.Float64frombits(binary.LittleEndian.Uint64(d[i:]))
			case 0x10:
				ok = float64(int32(binary.LittleEndian.Uint32(d[i:])))
			case 0x12:
				ok = float64(int64(binary.LittleEndian.Uint64(d[i:])))
			case 0x08:
				if d[i] != 0 {
					ok = 1
				}
			}
			if ok == 1 {
				return nil
			}
			return fmt.Errorf("ping replied ok=%v", ok)
		}
		i += size
	}
	return errors.New("no ok field in ping reply")
}
