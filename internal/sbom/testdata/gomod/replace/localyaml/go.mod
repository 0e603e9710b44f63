module "gopkg.in/yaml.v2"

require (
	"gopkg.in/check.v1" v0.0.0-20161208181325-20d25e280405
)
