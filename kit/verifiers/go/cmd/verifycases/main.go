// Command verifycases runs Verify over the kit's test cases read from stdin (README, "Testing").
package main

import (
	"bufio"
	"encoding/base64"
	"fmt"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	webhooks "github.com/switch-pagos/webhooks-go"
)

func decode(s string) []byte {
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		fmt.Fprintln(os.Stderr, "bad base64:", err)
		os.Exit(2)
	}
	return b
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<24)
	var name string
	var secrets []string
	var now int64
	var body []byte
	header := http.Header{}
	for in.Scan() {
		parts := strings.Split(in.Text(), " ")
		switch parts[0] {
		case "case":
			name, secrets, now, body, header = parts[1], nil, 0, nil, http.Header{}
		case "secret":
			secrets = append(secrets, string(decode(parts[1])))
		case "now":
			now, _ = strconv.ParseInt(parts[1], 10, 64)
		case "header":
			header.Add(parts[1], string(decode(parts[2])))
		case "body":
			if len(parts) > 1 {
				body = decode(parts[1])
			}
		case "end":
			at := time.Unix(now, 0)
			_, err := webhooks.Verify(body, header, webhooks.Options{Secrets: secrets, Now: func() time.Time { return at }})
			if err != nil {
				fmt.Printf("%s fail %s\n", name, webhooks.Reason(err))
			} else {
				fmt.Printf("%s ok\n", name)
			}
		}
	}
}
