# -*- encoding: utf-8 -*-
# stub: delegate 0.2.0 ruby lib

Gem::Specification.new do |s|
  s.name = "delegate".freeze
  s.version = "0.2.0"

  s.required_rubygems_version = Gem::Requirement.new(">= 0".freeze) if s.respond_to? :required_rubygems_version=
  s.metadata = { "homepage_uri" => "https://github.com/ruby/delegate", "source_code_uri" => "https://github.com/ruby/delegate" } if s.respond_to? :metadata=
  s.require_paths = ["lib".freeze]
  s.authors = ["Yukihiro Matsumoto".freeze]
  s.date = "2026-11-21"
  s.description = "Provides three abilities to delegate method calls to an object.".freeze
  s.email = ["matz@ruby-lang.org".freeze]
  s.files = ["lib/delegate.rb".freeze]
  s.homepage = "https://github.com/ruby/delegate".freeze
  s.licenses = ["Ruby".freeze, "BSD-2-Clause".freeze]
  s.required_ruby_version = Gem::Requirement.new(">= 2.7".freeze)
  s.rubygems_version = "3.3.7".freeze
  s.summary = "Provides three abilities to delegate method calls to an object.".freeze
end
