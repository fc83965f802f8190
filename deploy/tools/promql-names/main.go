// promql-names: PromQL checks with Prometheus' own packages, for ci/check-deploy.sh.
//
//	promql-names < exprs.jsonl         parse each {"src","expr"} JSON line (check_deploy.py exprs) and
//	                                   print {"src","names","error"}: the metric names it selects
//	promql-names check-rules FILE...   validate rule files with model/rulefmt, the parser and validator
//	                                   `promtool check rules` uses (without promtool's other checks)
//
// ci/check-deploy.sh builds it in the same throwaway Go module as promtool (.cache/tools/src/prometheus,
// github.com/prometheus/prometheus pinned there); it is no part of the services' build.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"sort"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/model/rulefmt"
	"github.com/prometheus/prometheus/promql/parser"
)

type input struct {
	Src  string `json:"src"`
	Expr string `json:"expr"`
}

type output struct {
	Src   string   `json:"src"`
	Names []string `json:"names"`
	Error string   `json:"error,omitempty"`
}

func main() {
	p := parser.NewParser(parser.Options{})
	if len(os.Args) > 1 && os.Args[1] == "check-rules" {
		os.Exit(checkRules(p, os.Args[2:]))
	}
	os.Exit(names(p))
}

func checkRules(p parser.Parser, files []string) int {
	status := 0
	for _, f := range files {
		rgs, errs := rulefmt.ParseFile(f, false, model.LegacyValidation, p, slog.New(slog.NewTextHandler(os.Stderr, nil)))
		if len(errs) > 0 {
			for _, err := range errs {
				fmt.Printf("  FAILED: %v\n", err)
			}
			status = 1
			continue
		}
		n := 0
		for _, g := range rgs.Groups {
			n += len(g.Rules)
		}
		fmt.Printf("  SUCCESS: %s: %d rules found\n", f, n)
	}
	return status
}

func names(p parser.Parser) int {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<24)
	out := json.NewEncoder(os.Stdout)
	status := 0
	for in.Scan() {
		var q input
		if err := json.Unmarshal(in.Bytes(), &q); err != nil {
			fmt.Fprintln(os.Stderr, "bad input line:", err)
			return 2
		}
		res := output{Src: q.Src, Names: []string{}}
		expr, err := p.ParseExpr(q.Expr)
		if err != nil {
			res.Error = err.Error()
			status = 1
		} else {
			seen := map[string]bool{}
			parser.Inspect(expr, func(node parser.Node, _ []parser.Node) error {
				if vs, ok := node.(*parser.VectorSelector); ok {
					name := vs.Name
					for _, m := range vs.LabelMatchers {
						if m.Name == labels.MetricName && m.Type == labels.MatchEqual {
							name = m.Value
						}
					}
					if name != "" {
						seen[name] = true
					}
				}
				return nil
			})
			for n := range seen {
				res.Names = append(res.Names, n)
			}
			sort.Strings(res.Names)
		}
		if err := out.Encode(res); err != nil {
			return 2
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	return status
}
