# -*- encoding: utf-8 -*-
# stub: observer 0.1.1 ruby lib

Gem::Specification.new do |s|
  s.name = "observer".freeze
  s.version = "0.1.1"

  s.required_rubygems_version = Gem::Requirement.new(">= 0".freeze) if s.respond_to? :required_rubygems_version=
  s.metadata = { "homepage_uri" => "https://github.com/ruby/observer", "source_code_uri" => "https://github.com/ruby/observer" } if s.respond_to? :metadata=
  s.require_paths = ["lib".freeze]
  s.authors = ["Yukihiro Matsumoto".freeze]
  s.bindir = "exe".freeze
  s.date = "2026-11-21"
  s.description = "Implementation of the Observer object-oriented design pattern.".freeze
  s.email = ["matz@ruby-lang.org".freeze]
  s.files = ["lib/observer.rb".freeze]
  s.homepage = "https://github.com/ruby/observer".freeze
  s.licenses = ["Ruby".freeze, "BSD-2-Clause".freeze]
  s.rubygems_version = "3.3.7".freeze
  s.summary = "Implementation of the Observer object-oriented design pattern.".freeze
end
