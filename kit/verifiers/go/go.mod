module github.com/switch-pagos/webhooks-go

go 1.21
